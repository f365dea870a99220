import Testing
@testable import PushStore
@testable import StoreContract

/// The doorkeeper lets a key in on its second offer, forgets everything every `capacity` marks,
/// and rarely takes a key never offered for one that was.
@Suite(.timeLimit(.minutes(5))) struct CacheDoorkeeperTests {
    /// Well-mixed hashes that are the same in every run (Swift's `Hasher` is seeded per process).
    func hash(_ n: Int) -> Int {
        var z = UInt64(n) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: z ^ (z >> 31))
    }

    @Test func aKeyIsSeenOnItsSecondOffer() {
        var doorkeeper = CacheDoorkeeper(capacity: 100)
        let answers = [hash(1), hash(1), hash(1), hash(2)].map { doorkeeper.offer($0) }
        #expect(answers == [false, true, true, false])
    }

    @Test func everythingIsForgottenAfterCapacityMarks() {
        var doorkeeper = CacheDoorkeeper(capacity: 10)
        for n in 0..<10 { _ = doorkeeper.offer(hash(n)) }
        // Ten marks: 0 still remembered; the eleventh mark (100) clears first, so 0 is new again.
        let answers = [hash(0), hash(100), hash(0)].map { doorkeeper.offer($0) }
        #expect(answers == [true, false, false])
    }

    /// Just before a clear, when the most bits are set: about 3 % of keys never offered pass.
    @Test func fewKeysNeverOfferedAreTakenForSeen() {
        var doorkeeper = CacheDoorkeeper(capacity: 10_000)
        for n in 0..<10_000 { _ = doorkeeper.offer(hash(n)) }
        var probe = doorkeeper
        let passed = (1_000_000..<1_010_000).filter { probe.offer(hash($0)) }.count
        #expect(passed < 600, "\(passed) of 10,000")
        #expect(doorkeeper.bytes == 16_384)
    }

    @Test func theFilterIsSizedToItsCapacityWithinBounds() {
        #expect(CacheDoorkeeper(capacity: 1).bytes == 512)
        #expect(CacheDoorkeeper(capacity: 100_000).bytes == 131_072)
        #expect(CacheDoorkeeper(capacity: 100_000_000).bytes == 8 << 20)
    }
}
