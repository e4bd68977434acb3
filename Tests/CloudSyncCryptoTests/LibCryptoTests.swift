import CloudSyncCrypto
import Testing

@Suite("libcrypto loaded on first use, and the kernel's random bytes")
struct LibCryptoTests {
    /// `shared()` opens libcrypto and resolves every function it holds, or throws naming the
    /// missing ones; afterwards the library is in the process.
    @Test func loaderResolvesEverySymbol() throws {
        _ = try LibCrypto.shared()
        #expect(LibCrypto.isLoaded)
    }

    /// Asked for from several tasks at once, every caller gets the library (one load).
    @Test func loaderIsSafeFromManyTasks() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    _ = try LibCrypto.shared()
                    #expect(try SHA256.libcrypto(Array("abc".utf8)) == SoftwareDigest.sha256(Array("abc".utf8)))
                }
            }
            try await group.waitForAll()
        }
    }

    /// What a user without OpenSSL 3 reads: one line naming the library.
    @Test func unavailableLibraryHasAHumanMessage() {
        let message = CryptoError.unavailable(LibCrypto.soname, "file not found").description
        #expect(message.contains("libcrypto.so.3"))
        #expect(message.contains("file not found"))
        #expect(!message.contains("\n"))
    }

    @Test func secureRandomBytesDiffer() {
        let a = SecureRandom.bytes(32), b = SecureRandom.bytes(32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        #expect(SecureRandom.bytes(0).isEmpty)
    }

    /// More than one `getentropy` call's worth (256 bytes): every chunk is filled.
    @Test func secureRandomFillsLongBuffers() {
        let bytes = SecureRandom.bytes(1000)
        #expect(bytes.count == 1000)
        for chunk in stride(from: 0, to: 1000, by: 256) {
            let part = bytes[chunk..<min(chunk + 256, 1000)]
            #expect(Set(part).count > 16, "chunk at \(chunk) looks unfilled")
        }
    }
}
