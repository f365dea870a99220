import ConfigSupport
import Foundation

extension WebPushAppConfiguration {
    /// `apps[i].webpush`: `{vapid_private_key, subject, navigate, allowed_endpoints?, ca_file?,
    /// pool_size?}`. The key is read and checked here, so a wrong one fails at start.
    public static func parse(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> WebPushAppConfiguration
    {
        try map.allowOnly(["vapid_private_key", "subject", "navigate", "allowed_endpoints", "ca_file", "pool_size"])
        guard let secret = try map.secret("vapid_private_key", environment: environment)?.0 else {
            throw .missingKey(map.name("vapid_private_key"))
        }
        let key: VAPIDKey
        do {
            key = try VAPIDKey(text: secret.value)
        } catch {
            throw .invalidValue(key: map.name("vapid_private_key"), reason: error.description)
        }
        guard let subject = try map.string("subject") else { throw .missingKey(map.name("subject")) }
        guard subject.hasPrefix("mailto:") || subject.hasPrefix("https://"), subject.utf8.count <= 256 else {
            throw .invalidValue(key: map.name("subject"), reason: "must be a mailto: or https: contact, e.g. mailto:ops@example.com")
        }
        guard let navigate = try map.string("navigate") else { throw .missingKey(map.name("navigate")) }
        guard let url = URL(string: navigate.replacingOccurrences(of: "{channel_url}", with: "c")), url.scheme == "https",
            url.host?.isEmpty == false
        else {
            throw .invalidValue(key: map.name("navigate"), reason: "must be an https URL, e.g. https://chat.example.com/c/{channel_url}")
        }
        var config = WebPushAppConfiguration(
            vapidPrivateKey: secret, vapidPublicKey: key.publicKey, subject: subject, navigateTemplate: navigate)
        if let origins = try map.strings("allowed_endpoints") {
            do {
                _ = try EndpointAllowlist(origins)
            } catch {
                throw .invalidValue(key: map.name("allowed_endpoints"), reason: error.description)
            }
            config.allowedEndpoints = origins
        }
        config.caFile = try map.filePath("ca_file", environment: environment)
        if let size = try map.poolSize() { config.poolSize = size }
        return config
    }
}
