import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct DescriptorBudgetTests {
    @Test func countsHTTPConnectionsAPNsPoolsTwiceAndAReserve() throws {
        let config = try RelayConfiguration.parse(
            yaml: """
                listen: {}
                database: {path: x.sqlite}
                http: {max_connections: 1000}
                apps:
                  - {app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa, apns: {topic: t, environment: sandbox, pool_size: 3, auth: {token: {key_file: /k.p8, key_id: ABC123DEFG, team_id: DEF123GHIJ}}}}
                  - {app_id: B, api_token: bbbbbbbbbbbbbbbbbbbb}
                """)
        let budget = DescriptorBudget(configuration: config)
        #expect(budget == DescriptorBudget(httpConnections: 1000, providerConnections: 3))
        #expect(budget.required == 1000 + ConnectionGate.inTransit + 12 + DescriptorBudget.reserve)
        // The defaults fit the unit's LimitNOFILE=8192 with room for 64 apps of 2 connections.
        #expect(DescriptorBudget(httpConnections: HTTPConfiguration.defaultMaxConnections, providerConnections: 128).required <= 8192)
    }

    @Test(
        arguments: [
            // (required, soft, hard) -> (new soft, fits)
            (5000, 8192, 8192, nil, true),  // fits already: untouched
            (5000, 1024, 524_288, 5000, true),  // systemd's default: raised to what is needed
            (5000, 1024, 4096, 4096, false),  // raised as far as the hard limit allows
            (5000, 4096, 4096, nil, false),  // nothing to raise
            (5000, 1024, UInt64.max, 5000, true),  // RLIM_INFINITY
        ] as [(UInt64, UInt64, UInt64, UInt64?, Bool)])
    func raisesTheSoftLimitUpToTheHardOne(required: UInt64, soft: UInt64, hard: UInt64, newSoft: UInt64?, fits: Bool) {
        let plan = DescriptorBudget.plan(required: required, soft: soft, hard: hard)
        #expect(plan.newSoft == newSoft)
        #expect(plan.fits == fits)
    }
}
