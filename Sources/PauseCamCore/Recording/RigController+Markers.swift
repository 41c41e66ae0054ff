import Foundation

/// `mark` and `mark rename`: a marker of the recording clip, named or numbered, and its name given afterwards. The
/// reply always says the marker's number, so a person (or the monitor page) can name a bare `mark` later.
extension RigController {
    /// A marker at the clip's current time; `text` nil numbers it ("Marker 2").
    func mark(_ text: String?) -> Reply {
        guard let recorder = clips.recorder else { return .failed("not recording; markers belong to a clip (`record` first)") }
        switch recorder.mark(text) {
        case .success(let marker):
            let at = DurationParser.clockString(marker.time)
            guard text == nil else { return .ok("marked \"\(marker.text)\" at \(at) (marker \(marker.number))") }
            return .ok("marked \"\(marker.text)\" at \(at); name it with: mark rename \(marker.number) TEXT")
        case .failure(let rejection): return .failed(rejection.message)
        }
    }

    /// Gives marker `number` of the recording clip the name `name`.
    func renameMarker(_ number: Int, to name: String) -> Reply {
        guard let recorder = clips.recorder else {
            return .failed("not recording; a marker is named while its clip records")
        }
        switch recorder.renameMarker(number, to: name) {
        case .success(let marker):
            return .ok("marker \(marker.number) at \(DurationParser.clockString(marker.time)) is now \"\(marker.text)\"")
        case .failure(let rejection): return .failed(rejection.message)
        }
    }
}
