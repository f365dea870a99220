extension Result where Failure == any Error {
    /// What `body` returned or threw, so a test helper can await its clean-up before rethrowing
    /// (a `defer` cannot await).
    public init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
