import Crypto
import Foundation
import Logging
import MockSupport

/// webpush-mock's own part of what its connections share: the subscriptions it made and what a
/// push to one does. Verification and decryption happen outside the lock.
final class WebPushMockCore: Sendable {
    let configuration: WebPushMockConfiguration
    let shared: SharedMockState<WebPushMockState>

    init(configuration: WebPushMockConfiguration, logger: Logger) throws(WebPushMockError) {
        self.configuration = configuration
        shared = try SharedMockState(settings: configuration.settings, logger: logger)
    }

    var logger: Logger { shared.logger }

    /// A new subscription at `origin`, as a browser's `toJSON()` gives it, with its private key
    /// (a test decrypts with it independently).
    func subscribe(origin: String) -> NewSubscription {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let id = shared.withLock { state in
            state.nextSubscription += 1
            let id = "sub-\(state.nextSubscription)-" + Base64URL.encode((0..<6).map { _ in UInt8.random(in: .min ... .max) })
            state.subscriptions[id] = .init(privateKey: Array(key.rawRepresentation), auth: auth)
            return id
        }
        return NewSubscription(
            id: id,
            subscription: .init(
                endpoint: "\(origin)/push/\(id)",
                keys: .init(p256dh: Base64URL.encode(key.publicKey.x963Representation), auth: Base64URL.encode(auth))),
            privateKey: Base64URL.encode(key.rawRepresentation))
    }

    /// Subscriptions answered `status` (404 or 410) from now on.
    func mark(_ ids: [String], status: Int) {
        shared.withLock { state in for id in ids { state.marked[id] = status } }
    }

    // MARK: A push

    /// `POST /push/{id}`: RFC 8030 §5, checked as a push service checks it.
    func push(to id: String, request: MockRequest, origin: String) -> WebPushMockAnswer {
        enum Gate {
            case unknown
            case marked(Int)
            case fault(Int, Int?)
            case open(WebPushMockState.Keys)
        }
        let gate: Gate = shared.withLock { state in
            guard let keys = state.subscriptions[id] else { return .unknown }
            if let status = state.marked[id] { return .marked(status) }
            if let fault = state.faults.takeAnswerFault() { return .fault(fault.status, fault.retryAfter) }
            return .open(keys)
        }
        switch gate {
        case .unknown: return .error(404, "no such subscription")
        case .marked(let status): return .error(status, status == 410 ? "subscription expired" : "no such subscription")
        case .fault(let status, let retryAfter): return .error(status, "fault injected", retryAfter: retryAfter)
        case .open(let keys): return accept(request, id: id, keys: keys, origin: origin)
        }
    }

    private func accept(_ request: MockRequest, id: String, keys: WebPushMockState.Keys, origin: String) -> WebPushMockAnswer {
        if request.bodyTooLarge || request.body.count > 4096 { return .error(413, "payload larger than 4096 bytes") }
        guard request.header("content-encoding") == "aes128gcm" else { return .error(400, "Content-Encoding must be aes128gcm") }
        guard let ttl = request.header("ttl").flatMap(Int.init), ttl >= 0 else { return .error(400, "TTL header missing or invalid") }
        let authorization = request.header("authorization")
        let identity: VAPIDVerifier.Identity
        switch VAPIDVerifier.verify(authorization, audience: origin, now: shared.now) {
        case .success(let verified): identity = verified
        case .failure(let why):
            shared.withLock { $0.stats.vapidRefused += 1 }
            return .error(401, "VAPID: \(why)")
        }
        let plaintext: [UInt8]
        do {
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: keys.privateKey)
            plaintext = try MessageDecryption.decrypt(Array(request.body), privateKey: key, auth: keys.auth)
        } catch {
            shared.withLock { $0.stats.undecryptable += 1 }
            return .error(400, "cannot decrypt: \(error)")
        }
        let record = RecordedPush(
            subscription: id, ttl: ttl, urgency: request.header("urgency"), topic: request.header("topic"),
            contentEncoding: request.header("content-encoding"), authorization: authorization ?? "", vapidKey: identity.publicKey,
            vapidSubject: identity.subject, body: request.body.base64EncodedString(),
            plaintext: String(decoding: plaintext, as: UTF8.self), httpVersion: request.httpVersion.rawValue,
            receivedAtMs: shared.nowMs)
        shared.withLock { state in
            state.stats.messagesAccepted += 1
            state.records.append(contentsOf: [record])
        }
        shared.writeToFile([record])
        return .created("\(origin)/m/\(id)/\(shared.nowMs)")
    }

    func arm(_ faults: WebPushMockFaults) {
        shared.withLock { state in
            state.faults.arm(faults)
            for id in faults.gone ?? [] { state.marked[id] = 410 }
            for id in faults.notFound ?? [] { state.marked[id] = 404 }
        }
    }
}

/// What `POST /subscriptions` answers: the browser's `toJSON()` and the private key behind it.
struct NewSubscription: Sendable, Codable {
    struct Subscription: Sendable, Codable {
        struct Keys: Sendable, Codable {
            var p256dh: String
            var auth: String
        }

        var endpoint: String
        var expirationTime: Int64? = nil
        var keys: Keys
    }

    var id: String
    var subscription: Subscription
    /// The P-256 private key's raw 32 bytes, base64url.
    var privateKey: String

    enum CodingKeys: String, CodingKey {
        case id, subscription
        case privateKey = "private_key"
    }
}
