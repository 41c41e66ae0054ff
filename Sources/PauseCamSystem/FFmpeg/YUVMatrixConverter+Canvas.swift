import PauseCamCore

extension YUVMatrixConverter {
    /// Converts the rectangle `rect` (even origin and size) of a yuv420p canvas, as `CanvasScaler.planes(of:)` gives
    /// its planes, in place: the picture libswscale just drew there. The bars around it are black, which every
    /// matrix leaves black, so they are not touched. The canvas's owner keeps its frame; nothing is allocated.
    func convert(_ planes: (data: [UnsafeMutablePointer<UInt8>], stride: [Int]), in rect: PixelRect) {
        let luma = PlaneRows(base: planes.data[0] + rect.y * planes.stride[0] + rect.x, stride: planes.stride[0])
        let blue = PlaneRows(base: planes.data[1] + rect.y / 2 * planes.stride[1] + rect.x / 2, stride: planes.stride[1])
        let red = PlaneRows(base: planes.data[2] + rect.y / 2 * planes.stride[2] + rect.x / 2, stride: planes.stride[2])
        convert(luma: luma, blue: blue, red: red, width: rect.width, height: rect.height)
    }
}
