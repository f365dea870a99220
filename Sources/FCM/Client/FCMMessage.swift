import PushSending

/// The body of `POST /v1/projects/{project}/messages:send` for one device: the stored data map
/// (the payload, already JSON), the token, `android.priority` high (a chat message must not
/// wait for the device's maintenance window) and the time to live. `validateOnly` asks FCM to
/// check, not deliver.
public enum FCMMessage {
    public static func body(data json: [UInt8], token: String, ttlSeconds: Int64, validateOnly: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + token.utf8.count + 96)
        out.append(contentsOf: #"{"message":{"android":{"priority":"high","ttl":""#.utf8)
        out.append(contentsOf: "\(max(0, ttlSeconds))s".utf8)
        out.append(contentsOf: #""},"data":"#.utf8)
        out.append(contentsOf: json)
        out.append(contentsOf: #","token":"#.utf8)
        JSONText.appendString(token, to: &out)
        out.append(contentsOf: "}".utf8)
        if validateOnly { out.append(contentsOf: #","validate_only":true"#.utf8) }
        out.append(contentsOf: "}".utf8)
        return out
    }
}
