import CQREncode
import CloudSyncCLI
import CloudSyncSession

/// A QR code symbol: `size` × `size` modules, true for dark.
struct QRMatrix: Equatable {
    let size: Int
    let modules: [Bool]

    subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Encodes text (8-bit mode, error correction M) with libqrencode (loaded on first use).
    static func encode(_ text: String) throws -> QRMatrix {
        let library: QREncodeLibrary
        do {
            library = try QREncodeLibrary.shared()
        } catch {
            throw error.cliError
        }
        guard let code = library.encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw CLIError.failed("cannot draw a QR code for \(text.utf8.count) bytes (libqrencode refused)")
        }
        defer { library.free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        return QRMatrix(size: width, modules: data.map { $0 & 1 == 1 })
    }
}

/// Draws a QR code in a terminal with Unicode half blocks, two module rows per text line, as
/// `qrencode -t UTF8` does: light modules are the ink, so on a terminal `ansi` pins white on
/// black to work on light and dark themes alike.
enum QRRenderer {
    /// The light margin around the symbol, in modules.
    static let margin = 2

    static func render(_ matrix: QRMatrix, ansi: Bool) -> String {
        let span = -margin..<(matrix.size + margin)
        var lines: [String] = []
        for top in stride(from: -margin, to: matrix.size + margin, by: 2) {
            var line = ""
            for x in span {
                let upperLight = !matrix[x, top], lowerLight = top + 1 < matrix.size + margin ? !matrix[x, top + 1] : false
                line += upperLight ? (lowerLight ? "█" : "▀") : (lowerLight ? "▄" : " ")
            }
            lines.append(ansi ? "\u{1B}[40;97m" + line + "\u{1B}[0m" : line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
