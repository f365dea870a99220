/// Makes `apns-id` values for requests that came without one: lowercase version-4-shaped UUIDs.
///
/// One generator per connection: a random 122-bit start then a counter, so an id costs a few
/// dozen nanoseconds (Foundation's `UUID()` reads the system RNG every time, which shows in
/// sink-mode throughput) and ids stay unique.
struct APNsIDGenerator {
    private var high: UInt64
    private var low: UInt64

    init() {
        var rng = SystemRandomNumberGenerator()
        self.high = rng.next()
        self.low = rng.next()
    }

    mutating func next() -> String {
        self.low &+= 1
        // Version 4 in the high half's nibble 12..15, RFC 4122 variant in the low half's top bits.
        let high = (self.high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (self.low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var position = 0
            func put(_ value: UInt64, nibbles: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
                digits.withUTF8Buffer { table in
                    for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                        buffer[position] = table[Int((value >> UInt64(shift)) & 0xF)]
                        position += 1
                    }
                }
            }
            put(high >> 32, nibbles: 8, into: buffer)
            buffer[position] = UInt8(ascii: "-")
            position += 1
            put((high >> 16) & 0xFFFF, nibbles: 4, into: buffer)
            buffer[position] = UInt8(ascii: "-")
            position += 1
            put(high & 0xFFFF, nibbles: 4, into: buffer)
            buffer[position] = UInt8(ascii: "-")
            position += 1
            put(low >> 48, nibbles: 4, into: buffer)
            buffer[position] = UInt8(ascii: "-")
            position += 1
            put(low & 0xFFFF_FFFF_FFFF, nibbles: 12, into: buffer)
            return position
        }
    }
}
