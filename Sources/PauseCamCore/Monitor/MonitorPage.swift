import Foundation

/// The browser monitor's page, script and style sheet, built into the binary (no network, no framework), and the
/// rig description the script builds its controls from. The three are plain files in `Page/` (open, lint and test
/// them as any web page's), which SwiftPM embeds in the code (`.embedInCode`, read through its generated
/// `PackageResources`), so the binary needs no resource folder beside it wherever it is installed. The page polls `/status.json` four times a second and
/// listens to `/events`; every button sends one command line to `POST /command`. A rig of voices gets a strip per
/// voice (level, hold mark, clipping light, speaking dot, mute, gain − and +) and, with `follow:`, a follow
/// toggle; a rig with `live:` gets a row per destination (a badge: LIVE, lost, connecting or off; bitrate, drops;
/// a toggle sending `live on|off NAME`); what they show comes from the status, never from the click alone. After a save it shows
/// `/last.jpg`, and a tap on it plays `/last.mov` in the page.
public enum MonitorPage {
    /// Only our own origin may provide scripts, styles, pictures and connections.
    public static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self'; connect-src 'self'; style-src 'self'; script-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// `/rig.json`: the rig's name, lens roles and optical zooms, zoom presets, the digital zoom limit, whether
    /// pictures are made, the names of its voices in rig order (empty for one microphone; the page makes a meter and
    /// controls for each) and whether it has `follow:` (the page then shows the follow toggle). Each lens says
    /// whether it can have camera controls (`controls`: a real camera's lens; a virtual or file lens has none), so the page offers the
    /// EV slider only where exposure can change.
    public static func rigJSON(_ rig: Rig, hasPictures: Bool) -> String {
        let object: [String: Any] = [
            "name": rig.name,
            "lenses": rig.lenses.map { lens -> [String: Any] in
                let controls = if case .camera = lens.source { true } else { false }
                return ["name": lens.name, "zoom": lens.zoom, "controls": controls]
            },
            "zoom_presets": rig.zoomPresets.map { ["name": $0.name, "lens": $0.lens, "digital": $0.digital] as [String: Any] },
            "max_digital_zoom": rig.maxDigitalZoom,
            "pictures": hasPictures,
            "voices": rig.audio.voices.map(\.name),
            "follow": rig.follow != nil,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a dictionary of strings and numbers is always JSON")
        }
        return text
    }

    /// `/`: the page (`Page/index.html`).
    public static let html = String(decoding: PackageResources.index_html, as: UTF8.self)

    /// `/app.css` (`Page/app.css`): one column in portrait, picture beside the controls in landscape.
    public static let styleSheet = String(decoding: PackageResources.app_css, as: UTF8.self)

    /// `/app.js` (`Page/app.js`): status polling, the event stream, the controls and the pictures.
    public static let script = String(decoding: PackageResources.app_js, as: UTF8.self)
}
