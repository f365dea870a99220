import Foundation
import Testing
@testable import APNs

@Suite(.timeLimit(.minutes(5))) struct APNsIDTests {
    @Test func randomIDsAreVersion4AndDistinct() {
        let ids = (0..<1000).map { _ in APNsID.random() }
        #expect(Set(ids).count == 1000)
        for id in ids {
            let s = id.uuidString
            #expect(s[s.index(s.startIndex, offsetBy: 14)] == "4")
            #expect("89AB".contains(s[s.index(s.startIndex, offsetBy: 19)]))
        }
    }
}
