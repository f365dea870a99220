import PushSending

/// The body of `POST /v1/{appId}/messages:send` for one device: a data message whose `data` is a
/// JSON string holding the stored data map (`message`, `push_title`, `sendbird`: the same bytes
/// FCM carries), `android.urgency` HIGH (a chat message must not wait for the device's power
/// saving) and what is left of the push's life as its TTL. `validateOnly` asks HMS to check, not
/// deliver.
public enum HMSMessage {
    public static func body(data json: [UInt8], token: String, ttlSeconds: Int64, validateOnly: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count * 5 / 4 + token.utf8.count + 128)
        out.append(contentsOf: #"{"validate_only":"#.utf8)
        out.append(contentsOf: (validateOnly ? "true" : "false").utf8)
        out.append(contentsOf: #","message":{"data":"#.utf8)
        JSONText.appendString(bytes: json, to: &out)
        out.append(contentsOf: #","android":{"urgency":"HIGH","ttl":""#.utf8)
        out.append(contentsOf: "\(max(1, ttlSeconds))s".utf8)
        out.append(contentsOf: #""},"token":["#.utf8)
        JSONText.appendString(token, to: &out)
        out.append(contentsOf: "]}}".utf8)
        return out
    }
}
