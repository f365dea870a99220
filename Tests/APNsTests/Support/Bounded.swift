import APNs

/// Sends `request`, giving up (by cancelling the send) after `limit`: a regression to a send
/// that never completes then fails the test instead of hanging the suite. Not a sleep used for
/// synchronisation; the limit is far above any expected wait.
func sendBounded(
    _ client: APNsClient, _ request: APNsRequest, timeout: Duration? = nil,
    limit: Duration = .seconds(60)
) async -> Result<APNsResponse, any Error> {
    await withTaskGroup(of: Result<APNsResponse, any Error>?.self) { group in
        group.addTask {
            do { return .success(try await client.send(request, timeout: timeout)) } catch { return .failure(error) }
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        var outcome: Result<APNsResponse, any Error>?
        while outcome == nil, let next = await group.next() {
            if let next { outcome = next } else { group.cancelAll() }
        }
        group.cancelAll()
        return outcome!
    }
}
