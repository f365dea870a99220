import Foundation
import TestSupport
@testable import PushService

/// Configuration YAML for one app with APNs token auth using the dev key.
func tokenAppYAML(
    database: String, port: Int = 0, apnsURL: String = "https://127.0.0.1:2197",
    keyFile: String = Repository.privateDevCert("AuthKey_DEVKEY1234.p8"), extra: String = ""
) -> String {
    """
    listen: {host: 127.0.0.1, port: \(port)}
    database: {path: \(database)}
    log_level: debug
    \(extra)
    apps:
      - app_id: app-A
        api_token: token-A-0123456789abcdef
        apns:
          topic: com.example.a
          environment: {url: "\(apnsURL)", ca_file: \(Repository.devCert("ca.pem"))}
          auth: {token: {key_file: \(keyFile), key_id: DEVKEY1234, team_id: DEVTEAM123}}
    """
}
