import Foundation
import Testing

@testable import APNsMock

@Suite("APNsIDGenerator", .timeLimit(.minutes(5)))
struct APNsIDGeneratorTests {
    @Test("ids are distinct lowercase version-4 UUIDs that pass the mock's own apns-id check")
    func format() {
        var generator = APNsIDGenerator()
        let ids = (0..<1000).map { _ in generator.next() }
        #expect(Set(ids).count == 1000)
        for id in ids.prefix(20) {
            #expect(id == id.lowercased())
            #expect(APNsRequestValidator.isCanonicalUUID(id))
            let uuid = UUID(uuidString: id)
            #expect(uuid != nil)
            #expect(Array(id)[14] == "4")
            #expect("89ab".contains(Array(id)[19]))
        }
        var other = APNsIDGenerator()
        #expect(other.next() != ids[0])
    }
}
