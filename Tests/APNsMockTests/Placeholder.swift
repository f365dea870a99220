import Testing
@testable import APNsMock
@Test func placeholderMock() { #expect(Bool(true)) }
