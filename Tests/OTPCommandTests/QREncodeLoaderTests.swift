@testable import OTPCommand
import Testing

/// libqrencode opened with dlopen on the first QR code.
@Suite("libqrencode loaded on first use")
struct QREncodeLoaderTests {
    /// A version 1 symbol is 21 modules wide; the finder pattern's corner is dark.
    @Test func encodesThroughTheLoadedLibrary() throws {
        _ = try QREncodeLibrary.shared()
        let matrix = try QRMatrix.encode("cloudsync")
        #expect(matrix.size == 21)
        #expect(matrix[0, 0] && matrix[6, 6] && !matrix[1, 1])
    }
}
