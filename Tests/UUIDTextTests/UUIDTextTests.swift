import Foundation
import Testing
import UUIDText

@Suite struct UUIDTextTests {
    @Test func lowercaseFormMatchesFoundation() {
        for _ in 0..<100 {
            let id = UUID()
            #expect(UUIDText.lowercase(id) == id.uuidString.lowercased())
        }
        let fixed = UUID(uuidString: "00FF10AB-CDEF-4123-8456-789ABCDEF012")!
        #expect(UUIDText.lowercase(fixed) == "00ff10ab-cdef-4123-8456-789abcdef012")
    }
}
