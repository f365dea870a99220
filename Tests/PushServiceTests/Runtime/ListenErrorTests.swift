import Testing
@testable import PushService

#if canImport(Glibc)
    import Glibc
#endif

/// The one line `serve` prints when `listen:` cannot be bound (the binary's own case, a taken
/// port, is in `ServeBinaryTests`).
@Suite(.timeLimit(.minutes(5))) struct ListenErrorTests {
    @Test func namesTheAddressAsAURLWouldAndTheReason() {
        #expect(
            ListenError(listen: ListenConfiguration(host: "::1", port: 8080), errno: EADDRNOTAVAIL).description
                == "cannot listen on [::1]:8080: Cannot assign requested address")
        #expect(
            ListenError(listen: ListenConfiguration(host: "0.0.0.0", port: 80), errno: EACCES).description
                == "cannot listen on 0.0.0.0:80: Permission denied")
        #expect(ListenError.bindErrors.contains(EADDRINUSE))
    }
}
