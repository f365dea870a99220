import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// The tests' process runner with as many descriptors open as a parallel test run holds (the
/// condition under which Foundation's `Process.run()` read past its directory buffer and the
/// test process died of SIGSEGV).
@Suite(.timeLimit(.minutes(5))) struct ChildProcessTests {
    @Test func spawnsWithThousandsOfDescriptorsOpen() async throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let extra = min(3_000, Int(limit.rlim_cur) - 200)
        try #require(extra > 1_500, "RLIMIT_NOFILE \(limit.rlim_cur) is too low for this test")
        let descriptors = (0..<extra).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { descriptors.forEach { close($0) } }
        for _ in 0..<20 {
            let result = try await ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
            #expect(result.status == 3)
            #expect(result.stdout == "out\n")
            #expect(result.stderr == "err\n")
        }
        // The child inherits no descriptor but its three standard ones.
        let listing = try await ChildProcess.run("/bin/sh", ["-c", "ls /proc/self/fd | wc -l"])
        #expect((Int(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 9999) <= 4, "\(listing.stdout)")
    }

    @Test func aSignalledChildReportsTheSignalAndRunsInItsDirectory() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "pwd; exec sleep 600"], directory: "/tmp")
        #expect(await eventually(within: 60) { child.stdout == "/tmp\n" })
        child.signal(SIGHUP)  // delivered: the child starts with default handlers and no blocked signals
        #expect(await child.exitStatus() == SIGHUP)
    }
}
