import Testing
@testable import APNs
@Test func placeholder() { #expect(Bool(true)) }
