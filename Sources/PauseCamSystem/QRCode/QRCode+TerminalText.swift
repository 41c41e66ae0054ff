/// A QR code as terminal text: each character cell shows two modules, one above the other, with Unicode half
/// blocks (`▀`, `▄`, `█`, space), so the code is square on a terminal whose cells are twice as tall as wide.
///
/// The drawn part of a cell is the light module: on the usual light-on-dark terminal the code then reads dark on
/// light, as printed codes do (what `qrencode -t UTF8` draws too). Phone cameras also read the inverse, so a
/// dark-on-light terminal works as well.
extension QRCode {
    /// The code with `quietZone` light modules around it (the standard asks for 4; 2 reads well on a screen),
    /// one line per two module rows, each line ending in a newline.
    public func terminalText(quietZone: Int = 2) -> String {
        let first = -quietZone, end = size + quietZone
        var text = ""
        for row in stride(from: first, to: end, by: 2) {
            for column in first..<end {
                let topLight = !isDark(row: row, column: column)
                let bottomLight = row + 1 < end ? !isDark(row: row + 1, column: column) : false
                switch (topLight, bottomLight) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += "\n"
        }
        return text
    }
}
