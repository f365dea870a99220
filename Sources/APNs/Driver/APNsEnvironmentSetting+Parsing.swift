import ConfigSupport
import Foundation
import HTTP2Transport
import Yams

extension APNsEnvironmentSetting {
    /// The forms `apns.environment` takes, and `push-relay send --environment` with them.
    public static let forms =
        "production, sandbox (or development), https://HOST:PORT or {url: https://HOST:PORT, ca_file: PATH, tokens: sandbox}"

    /// `production`; `sandbox`, or `development` as Apple's entitlement and Sendbird's push
    /// settings call it; `https://HOST:PORT`; or `{url: https://HOST:PORT, ca_file: PATH, tokens:
    /// production | sandbox}` (which of Apple's environments the endpoint stands for).
    static func parse(_ node: Node, key: String, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> APNsEnvironmentSetting
    {
        if case .scalar(let scalar) = node {
            switch scalar.string {
            case "production": return .production
            case "sandbox", "development": return .sandbox
            case let text where text.hasPrefix("https://"): return .custom(endpoint: try origin(text, key: key), caFile: nil)
            case let other: throw .invalidValue(key: key, reason: "\"\(other)\" is not \(forms)")
            }
        }
        let custom = try ConfigMapping(node, path: key)
        try custom.allowOnly(["url", "ca_file", "tokens"])
        guard let text = try custom.string("url") else { throw .missingKey(custom.name("url")) }
        let caFile = try custom.filePath("ca_file", environment: environment)
        let sandbox: Bool
        switch try custom.string("tokens") {
        case nil, "production": sandbox = false
        case "sandbox", "development": sandbox = true
        case let other?: throw .invalidValue(key: custom.name("tokens"), reason: "\"\(other)\" is not production or sandbox")
        }
        return .custom(endpoint: try origin(text, key: custom.name("url")), caFile: caFile, sandbox: sandbox)
    }

    /// The same forms written on a command line (`option` names it in errors): YAML's flow
    /// syntax, so `{url: https://127.0.0.1:2197, ca_file: certs/dev/ca.pem}` reads as in the file.
    public static func parse(_ text: String, option: String) throws(ConfigurationError) -> APNsEnvironmentSetting {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw .invalidValue(key: option, reason: "is not \(forms)")
        }
        guard let node else { throw .invalidValue(key: option, reason: "is not \(forms)") }
        return try parse(node, key: option, environment: .process)
    }

    private static func origin(_ text: String, key: String) throws(ConfigurationError) -> TransportEndpoint {
        guard let url = URL(string: text), let origin = HTTPSOrigin(url) else {
            throw .invalidValue(key: key, reason: "must be https://HOST:PORT")
        }
        return TransportEndpoint(host: origin.host, port: origin.port)
    }
}
