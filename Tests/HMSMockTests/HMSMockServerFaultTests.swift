import Foundation
import HMSMock
import Testing

/// Each fault is answered with Huawei's code and status, for as many requests as armed, over HTTP/2
/// and HTTP/1.1 alike.
@Suite(.timeLimit(.minutes(5))) struct HMSMockServerFaultTests {
    static let protocols = [HMSFixture.bothProtocols, ["http/1.1"]]

    @Test(arguments: protocols)
    func anInvalidTokenAloneIs80300007AndAmongOthersIsAnIllegalTokenOf80100000(alpn: [String]) async throws {
        try await HMSFixture.withServer { server in
            let good = HMSFixture.deviceToken(1)
            let bad = HMSFixture.deviceToken(2)
            server.markInvalid([bad])
            try await HMSFixture.withClient(server, alpn: alpn) { client, accessToken in
                let alone = try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [bad]))
                #expect(alone.status == 200)
                #expect(alone.code == "80300007")
                #expect(server.messages.isEmpty)

                let mixed = try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [good, bad, "has space"]))
                #expect(mixed.status == 200)
                #expect(mixed.code == "80100000")
                let detail = try #require(mixed.msg.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any])
                #expect(detail["success"] as? Int == 1)
                #expect(detail["failure"] as? Int == 2)
                #expect(detail["illegal_tokens"] as? [String] == [bad, "has space"])
                #expect(try await server.waitForMessages(count: 1, timeout: .seconds(30)).map(\.token) == [good])
            }
        }
    }

    @Test(arguments: protocols)
    func flowControlAnswers503WithRetryAfterForTheNextNSends(alpn: [String]) async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server, alpn: alpn) { client, accessToken in
                server.arm(HMSMockFaults(flowControl: .init(count: 2, retryAfter: 3)))
                let request = HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)])
                for _ in 0..<2 {
                    let limited = try await client.send(request)
                    #expect(limited.status == 503)
                    #expect(limited.headers.first(name: "retry-after") == "3")
                }
                #expect(server.armedFaults == HMSMockFaults())
                let passed = try await client.send(request)
                #expect(passed.code == "80000000")
                #expect(passed.headers.first(name: "retry-after") == nil)
            }
        }
    }

    @Test func flowControlComesBeforeTheAccessTokenIsLookedAt() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server) { client, _ in
                server.arm(HMSMockFaults(flowControl: .init(count: 1)))
                let limited = try await client.send(HMSFixture.sendRequest(accessToken: nil, tokens: [HMSFixture.deviceToken(1)]))
                #expect(limited.status == 503)
                #expect(limited.headers.first(name: "retry-after") == nil)
            }
        }
    }

    @Test(arguments: protocols)
    func anInternalErrorIs500With81000001ForTheNextN(alpn: [String]) async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server, alpn: alpn) { client, accessToken in
                server.arm(HMSMockFaults(internalError: 1))
                let request = HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)])
                let failed = try await client.send(request)
                #expect(failed.status == 500)
                #expect(failed.code == "81000001")
                #expect(try await client.send(request).code == "80000000")
                #expect(server.messages.count == 1)
            }
        }
    }

    @Test func refusedCredentialsAndAnUnavailableTokenEndpointAreSpentOneTokenRequestEach() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withConnection(port: server.port, transport: .tls(alpn: HMSFixture.bothProtocols)) { client in
                server.arm(HMSMockFaults(refuseCredentials: 1, tokenEndpointUnavailable: 1))
                let unavailable = try await client.send(HMSFixture.tokenRequest())
                #expect(unavailable.status == 503)
                let refused = try await client.send(HMSFixture.tokenRequest())
                #expect(refused.status == 400)
                #expect(refused.json?["sub_error"] as? Int == 12304)
                #expect(try await client.send(HMSFixture.tokenRequest()).status == 200)
                #expect(server.stats.tokenRequestsRefused == 2)
            }
        }
    }

    @Test(arguments: protocols)
    func aDelayHoldsEveryAnswerUntilCleared(alpn: [String]) async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server, alpn: alpn) { client, accessToken in
                server.arm(HMSMockFaults(delayMilliseconds: 300))
                let request = HMSFixture.sendRequest(accessToken: accessToken, tokens: [HMSFixture.deviceToken(1)])
                let clock = ContinuousClock()
                let start = clock.now
                let delayed = try await client.send(request)
                // A lower bound only: a slow machine answers later, never sooner.
                #expect(clock.now - start >= .milliseconds(300))
                #expect(delayed.code == "80000000")
                #expect(server.armedFaults.delayMilliseconds == 300)
                server.clearFaults()
                #expect(server.armedFaults == HMSMockFaults())
                #expect(try await client.send(request).code == "80000000")
            }
        }
    }

    @Test func resetForgetsMessagesFaultsInvalidTokensAndCounters() async throws {
        try await HMSFixture.withServer { server in
            try await HMSFixture.withClient(server) { client, accessToken in
                let token = HMSFixture.deviceToken(1)
                let before = try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [token]))
                #expect(before.code == "80000000")
                server.arm(HMSMockFaults(invalidTokens: [token], internalError: 5))
                server.reset()
                #expect(server.messages.isEmpty)
                #expect(server.armedFaults == HMSMockFaults())
                #expect(server.stats.sendRequests == 0)
                #expect(server.stats.connectionsOpen == 1)
                // Issued access tokens outlive a reset: the client's session goes on.
                #expect(try await client.send(HMSFixture.sendRequest(accessToken: accessToken, tokens: [token])).code == "80000000")
            }
        }
    }
}
