/// Remembers, approximately, which keys were offered to a cache recently, so that a key is let in
/// on its second offer (TinyLFU's doorkeeper, as in Caffeine).
///
/// A cached recipient pays only when the member is pushed to again before a registry write. With
/// far more registered users than the cache holds and members drawn from all of them, most are
/// seen once and then not again for a long time; admitted on first sight they filled the cache
/// with entries never used, and each insert and eviction cost the webhook CPU.
///
/// A Bloom filter of two bits per key, cleared after `capacity` marks: a key offered twice
/// between two clears is remembered; a key never offered is taken as seen with a probability of
/// at most 5 % just before a clear (8 to 16 bits per mark, at most 22 % of them set), about 2 %
/// over the filter's life. The bits are allocated on the first offer, so a cache that never fills
/// to where it asks costs nothing.
package struct CacheDoorkeeper: Sendable {
    private var words: [UInt64] = []
    private var marks = 0
    /// Marks between clears.
    package let capacity: Int
    private let mask: Int

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        // About 8 bits per mark, a power of two between 4 Kib (512 bytes) and 64 Mib (8 MB).
        var bits = 1 << 12
        while bits < self.capacity * 8, bits < 1 << 26 { bits <<= 1 }
        mask = bits - 1
    }

    /// Bytes the filter holds once allocated.
    package var bytes: Int { (mask + 1) / 8 }

    /// Whether `hash` was offered since the last clear; it is marked as offered either way.
    package mutating func offer(_ hash: Int) -> Bool {
        if words.isEmpty { words = Array(repeating: 0, count: (mask + 1) / 64) }
        let value = UInt64(bitPattern: Int64(hash))
        // Two positions from the two halves of the hash (Hasher's output is well mixed).
        let first = Int(truncatingIfNeeded: value) & mask
        let second = Int(truncatingIfNeeded: value >> 32) & mask
        let seen = isSet(first) && isSet(second)
        if !seen {
            if marks >= capacity {
                for index in words.indices { words[index] = 0 }
                marks = 0
            }
            set(first)
            set(second)
            marks += 1
        }
        return seen
    }

    private func isSet(_ bit: Int) -> Bool { words[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }

    private mutating func set(_ bit: Int) { words[bit >> 6] |= 1 << UInt64(bit & 63) }
}
