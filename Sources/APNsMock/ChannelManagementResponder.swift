import Foundation
import MockSupport

/// APNs' channel management API for broadcast push (iOS 18), on a port of its own as Apple serves
/// it (`api-manage-broadcast.push.apple.com:2196`; the sandbox's on 2195): create a channel
/// (`POST /1/apps/{bundle}/channels {"message-storage-policy": 0|1, "push-type": "LiveActivity"}`
/// → 201 with `apns-channel-id`), read one and delete one (`GET` / `DELETE …/channels` with the
/// `apns-channel-id` header), and list them (`GET /1/apps/{bundle}/all-channels` →
/// `{"channels": [...]}`). Authenticated by the provider token, as pushes are (a mock with a
/// client CA takes its certificate instead).
struct ChannelManagementResponder: MockResponder {
    let core: MockServerCore
    let verifier: ProviderTokenVerifier

    func respond(to request: MockRequest) -> MockReply<ChannelManagementAnswer> {
        if let refusal = authenticate(request) { return .answer(.error(refusal)) }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "1", "apps", bundle, "channels" | "all-channels"
        guard parts.count == 5, parts[1] == "1", parts[2] == "apps", !parts[3].isEmpty else { return .answer(.error(.badPath)) }
        let bundle = String(parts[3])
        switch (request.head.method, parts[4]) {
        case (.POST, "channels"): return .answer(create(bundle: bundle, body: request.body))
        case (.GET, "all-channels"): return .answer(.json(200, ["channels": core.channels { $0.ids(bundle: bundle) }]))
        case (.GET, "channels"), (.DELETE, "channels"):
            guard let id = request.header("apns-channel-id"), !id.isEmpty else { return .answer(.error(.missingChannelID)) }
            if request.head.method == .DELETE {
                return .answer(
                    core.channels { $0.delete(bundle: bundle, id: id) }
                        ? ChannelManagementAnswer(status: 204, body: Data()) : .error(.channelNotRegistered))
            }
            guard let policy = core.channels({ $0.storagePolicy(bundle: bundle, id: id) }) else {
                return .answer(.error(.channelNotRegistered))
            }
            return .answer(.json(200, ["message-storage-policy": policy, "push-type": "LiveActivity"]))
        case (_, "channels"), (_, "all-channels"): return .answer(.error(.methodNotAllowed))
        default: return .answer(.error(.badPath))
        }
    }

    func answered(_ answer: ChannelManagementAnswer) {}

    private func create(bundle: String, body: Data) -> ChannelManagementAnswer {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return .error(.badMessageStoragePolicy) }
        guard let policy = object["message-storage-policy"] as? Int, BroadcastChannels.storagePolicies.contains(policy) else {
            return .error(.badMessageStoragePolicy)
        }
        guard object["push-type"] as? String == "LiveActivity" else { return .error(.invalidPushType) }
        // Apple's ids are base64 of random bytes.
        let id = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        core.channels { $0.create(bundle: bundle, id: id, storagePolicy: policy) }
        return ChannelManagementAnswer(status: 201, body: Data(), channelID: id)
    }

    private func authenticate(_ request: MockRequest) -> APNsErrorAnswer? {
        guard core.configuration.clientCAPath == nil else { return nil }
        guard let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("bearer ") else {
            return .missingProviderToken
        }
        let jwt = authorization.dropFirst("bearer ".count).drop(while: { $0 == " " })
        switch core.judgeProviderToken(jwt, now: core.configuration.now(), verifier: verifier) {
        case .fresh: return nil
        case .expired: return .expiredProviderToken
        case .invalid: return .invalidProviderToken
        }
    }
}
