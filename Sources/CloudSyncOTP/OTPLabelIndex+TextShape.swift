extension OTPLabelIndex {
    /// What one pass over bytes of the text form tells: how many tabs and line breaks they
    /// hold, and whether every byte is ASCII. `otp code QUERY` checks the shape of the whole
    /// index's entry lines with it instead of splitting every line; any other match, whether
    /// the whole text is ASCII.
    struct TextShape: Equatable {
        var tabs = 0
        var breaks = 0
        var isASCII = true

        init(tabs: Int, breaks: Int, isASCII: Bool) {
            self.tabs = tabs
            self.breaks = breaks
            self.isASCII = isASCII
        }

        /// The shape of `count` bytes at `text`, sixteen bytes at a time: a byte-wise compare
        /// gives all ones (-1) in each lane that matches, which is subtracted from a lane
        /// counter; the counters are summed every 255 blocks, before a lane could wrap.
        init(_ text: UnsafePointer<UInt8>, _ count: Int) {
            let raw = UnsafeRawPointer(text)
            let tab = SIMD16<UInt8>(repeating: 9), lineBreak = SIMD16<UInt8>(repeating: 10)
            var offset = 0, high = SIMD16<UInt8>()
            while offset + 16 <= count {
                var tabLanes = SIMD16<UInt8>(), breakLanes = SIMD16<UInt8>()
                var blocks = 0
                while offset + 16 <= count && blocks < 255 {
                    let block = raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                    high |= block
                    tabLanes &-= unsafeBitCast(block .== tab, to: SIMD16<UInt8>.self)
                    breakLanes &-= unsafeBitCast(block .== lineBreak, to: SIMD16<UInt8>.self)
                    offset &+= 16
                    blocks &+= 1
                }
                tabs += Int(SIMD16<UInt16>(truncatingIfNeeded: tabLanes).wrappedSum())
                breaks += Int(SIMD16<UInt16>(truncatingIfNeeded: breakLanes).wrappedSum())
            }
            var tailHigh: UInt8 = 0
            while offset < count {
                let byte = text[offset]
                if byte == 9 { tabs += 1 } else if byte == 10 { breaks += 1 }
                tailHigh |= byte
                offset += 1
            }
            isASCII = (high .< 128) == SIMDMask(repeating: true) && tailHigh < 128
        }
    }
}
