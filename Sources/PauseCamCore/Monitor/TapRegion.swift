/// Where a tap on the monitor's program picture lands on the camera's sensor: the rectangle, in the pixels of the
/// picture the camera delivers, that a camera with a region of interest (UVC 1.5's `region_of_interest_rect`) is
/// told to focus and expose for.
///
/// The program picture shows the lens turned and mirrored (`PictureOrientation`) and then cropped to its digital
/// zoom (the centre crop `ZoomPlan.centreCrop` makes of the oriented picture), so a tap is mapped back through the
/// crop, then the mirror, then the turn. The region spans `shownFraction` of the shorter side of what the page
/// shows, so when zoomed in it covers less of the sensor, as the user sees it. Pure arithmetic: the caller clamps
/// the result to what the camera accepts.
public enum TapRegion {
    /// The share of the shown picture's shorter side that a tap's region spans.
    public static let shownFraction = 0.2

    /// The sensor rectangle for a tap at (`x`, `y`), each from 0 (left, top) to 1 (right, bottom) of the program
    /// picture as shown; a point outside is taken at the nearest edge. The rectangle lies within the
    /// `sensorWidth`×`sensorHeight` picture (moved inside, never cut, when the tap is near an edge) and is at least
    /// 2×2 pixels.
    public static func sensorRect(x: Double, y: Double, sensorWidth: Int, sensorHeight: Int,
                                  orientation: PictureOrientation, digitalZoom: Double,
                                  shownFraction: Double = shownFraction) -> PixelRect {
        let width = max(2, sensorWidth), height = max(2, sensorHeight)
        let tapX = x.isFinite ? min(1, max(0, x)) : 0.5, tapY = y.isFinite ? min(1, max(0, y)) : 0.5
        let oriented = orientation.orientedSize(width: width, height: height)
        let crop = digitalZoom > 1.0001
            ? ZoomPlan.centreCrop(width: oriented.width, height: oriented.height, factor: digitalZoom)
            : PixelRect(x: 0, y: 0, width: oriented.width, height: oriented.height)
        let centre = (x: Double(crop.x) + tapX * Double(crop.width), y: Double(crop.y) + tapY * Double(crop.height))
        let half = max(1, shownFraction * Double(min(crop.width, crop.height)) / 2)
        let corners = [sensorPoint(x: centre.x - half, y: centre.y - half, width: width, height: height,
                                   orientation: orientation),
                       sensorPoint(x: centre.x + half, y: centre.y + half, width: width, height: height,
                                   orientation: orientation)]
        let left = min(corners[0].x, corners[1].x), right = max(corners[0].x, corners[1].x)
        let top = min(corners[0].y, corners[1].y), bottom = max(corners[0].y, corners[1].y)
        let side = (width: min(width, max(2, Int((right - left).rounded()))),
                    height: min(height, max(2, Int((bottom - top).rounded()))))
        let middle = (x: (left + right) / 2, y: (top + bottom) / 2)
        let originX = min(width - side.width, max(0, Int((middle.x - Double(side.width) / 2).rounded())))
        let originY = min(height - side.height, max(0, Int((middle.y - Double(side.height) / 2).rounded())))
        return PixelRect(x: originX, y: originY, width: side.width, height: side.height)
    }

    /// The sensor point under the point (`x`, `y`) of the oriented picture (continuous coordinates: 0 is a
    /// picture's left or top edge, its width or height the other edge), for a `width`×`height` sensor picture.
    public static func sensorPoint(x: Double, y: Double, width: Int, height: Int,
                                   orientation: PictureOrientation) -> (x: Double, y: Double) {
        let oriented = orientation.orientedSize(width: width, height: height)
        let unmirrored = orientation.mirrored ? Double(oriented.width) - x : x
        let w = Double(width), h = Double(height)
        switch orientation.rotation {
        case .none: return (unmirrored, y)
        // A clockwise quarter turn takes the sensor's (sx, sy) to (h − sy, sx).
        case .quarter: return (y, h - unmirrored)
        case .half: return (w - unmirrored, h - y)
        // Three quarters clockwise takes (sx, sy) to (sy, w − sx).
        case .threeQuarters: return (w - y, unmirrored)
        }
    }
}
