/// Runs `body`, then `teardown` whether `body` threw or not: Swift has no `async` defer. A
/// teardown that fails after a failed body is ignored (the body's error says what went wrong).
public func withTeardown(_ body: () async throws -> Void, teardown: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try? await teardown()
        throw error
    }
    try await teardown()
}
