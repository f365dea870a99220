import AsyncHTTPClient
import Foundation
import HTTP2Transport
import Logging
import NIOCore
import NIOHTTP1
import PooledHTTP
import ProviderDriver
import Synchronization

/// APNs' channel management API for broadcast push (iOS 18, "Sending channel management requests
/// to APNs"), on its own host and port (`api-manage-broadcast.push.apple.com:2196`; the sandbox's
/// `api-manage-broadcast.sandbox.push.apple.com:2195`): create a channel for a bundle, read its
/// storage policy, list the bundle's channels, delete one. Rare requests, on a pooled
/// AsyncHTTPClient of its own, made at the first request (most apps never manage a channel);
/// authenticated by the app's provider token (a certificate-based app cannot manage channels here).
public final class APNsChannelManager: BroadcastChannelService {
    public let endpoint: TransportEndpoint
    public let bundleID: String
    private let tokens: ProviderTokenCache
    private let settings: PooledHTTPClient.Settings
    /// Made at the first request; nil again after `shutdown()` (which refuses later requests).
    private let pool = Mutex<(client: PooledHTTPClient?, shutDown: Bool)>((nil, false))
    private let timeout: Duration

    /// Apple's channel management hosts.
    public static let production = TransportEndpoint(host: "api-manage-broadcast.push.apple.com", port: 2196)
    public static let sandbox = TransportEndpoint(host: "api-manage-broadcast.sandbox.push.apple.com", port: 2195)

    public init(
        endpoint: TransportEndpoint, bundleID: String, tokens: ProviderTokenCache, caFile: String?, timeout: Duration = .seconds(10),
        logger: Logger
    ) throws(APNsChannelError) {
        self.endpoint = endpoint
        self.bundleID = bundleID
        self.tokens = tokens
        self.timeout = timeout
        do {
            settings = .init(tls: try .pooledClient(trustingOnly: caFile), connectionsPerHost: 1, logger: logger)
        } catch {
            throw .transport(error.description)
        }
    }

    private func client() throws(APNsChannelError) -> PooledHTTPClient {
        let client = pool.withLock { pool -> PooledHTTPClient? in
            if pool.shutDown { return nil }
            if let client = pool.client { return client }
            let client = PooledHTTPClient(settings)
            pool.client = client
            return client
        }
        guard let client else { throw .transport("the channel manager is shut down") }
        return client
    }

    /// Creates a channel; its id (`apns-channel-id`, base64). `storagePolicy` 0 stores no message
    /// for an offline device, 1 the latest.
    public func create(storagePolicy: Int) async throws(APNsChannelError) -> String {
        let body = Data(#"{"message-storage-policy":\#(storagePolicy),"push-type":"LiveActivity"}"#.utf8)
        let (status, headers, _) = try await request(.POST, "channels", body: body)
        guard status == 201, let id = headers.first(name: "apns-channel-id"), !id.isEmpty else {
            throw .answered(status: status, reason: nil)
        }
        return id
    }

    /// A channel's message storage policy.
    public func storagePolicy(of channel: String) async throws(APNsChannelError) -> Int {
        let (_, _, body) = try await request(.GET, "channels", channel: channel)
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let policy = object["message-storage-policy"] as? Int
        else { throw .answered(status: 200, reason: nil) }
        return policy
    }

    /// The bundle's channel ids.
    public func channels() async throws(APNsChannelError) -> [String] {
        let (_, _, body) = try await request(.GET, "all-channels")
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let ids = object["channels"] as? [String]
        else { throw .answered(status: 200, reason: nil) }
        return ids
    }

    /// Deletes a channel (APNs stops broadcasting to its subscribers).
    public func delete(_ channel: String) async throws(APNsChannelError) {
        _ = try await request(.DELETE, "channels", channel: channel)
    }

    public func shutdown() async {
        let client = pool.withLock { pool in
            pool.shutDown = true
            return pool.client
        }
        await client?.shutdown()
    }

    /// `BroadcastChannelService`: false when APNs did not know the channel.
    public func deleteChannel(_ channel: String) async throws -> Bool {
        do {
            try await delete(channel)
            return true
        } catch  where error.isUnknownChannel {
            return false
        }
    }

    public func createChannel(storagePolicy: Int) async throws -> String { try await create(storagePolicy: storagePolicy) }

    /// One request; a status outside 2xx is thrown with Apple's reason.
    private func request(_ method: HTTPMethod, _ resource: String, channel: String? = nil, body: Data? = nil)
        async throws(APNsChannelError) -> (Int, HTTPHeaders, Data)
    {
        var request = HTTPClientRequest(url: "https://\(endpoint.host):\(endpoint.port)/1/apps/\(bundleID)/\(resource)")
        request.method = method
        do {
            request.headers.add(name: "authorization", value: try tokens.current().authorizationHeader)
        } catch {
            throw .transport("cannot sign the provider token: \(error)")
        }
        if let channel { request.headers.add(name: "apns-channel-id", value: channel) }
        if let body {
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        let data: Data
        do {
            response = try await client().http.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
            data = Data((try await response.body.collect(upTo: 64 * 1024)).readableBytesView)
        } catch {
            throw .transport("\(error)")
        }
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else {
            let reason = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["reason"] as? String
            throw .answered(status: status, reason: reason.map(APNsReason.init(rawValue:)))
        }
        return (status, response.headers, data)
    }
}

/// Why a channel management request failed.
public enum APNsChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// APNs answered with an error (or an answer without what it should carry).
    case answered(status: Int, reason: APNsReason?)
    /// No answer, or the relay's own material failed.
    case transport(String)

    public var description: String {
        switch self {
        case .answered(let status, let reason?): "APNs answered \(status) \(reason)"
        case .answered(let status, nil): "APNs answered \(status) without what the API promises"
        case .transport(let detail): detail
        }
    }

    /// APNs does not know the channel (deleted, or never created for this bundle).
    public var isUnknownChannel: Bool {
        if case .answered(_, .channelNotRegistered?) = self { return true }
        if case .answered(404, _) = self { return true }
        return false
    }
}
