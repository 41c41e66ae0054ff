import CFFmpeg
import PauseCamCore

/// An FFmpeg call that failed: which call, its error code, and `av_strerror`'s text for it.
public struct FFmpegError: Error, CustomStringConvertible, Sendable {
    /// The C function (and object) that failed, e.g. "avcodec_open2(libx264)".
    public var call: String
    /// The negative AVERROR code.
    public var code: Int32

    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `av_strerror`'s text for the code.
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(call) failed: \(message) (\(code))" }

    /// Throws an `FFmpegError` when `code` is negative; returns it otherwise (a count or zero).
    @discardableResult
    static func check(_ code: Int32, _ call: @autoclosure () -> String) throws -> Int32 {
        if code < 0 { throw FFmpegError(call(), code: code) }
        return code
    }
}
