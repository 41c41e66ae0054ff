import Foundation
import PauseCamCore

FileHandle.standardError.write("pausecam: not yet wired\n".data(using: .utf8)!)
exit(1)
