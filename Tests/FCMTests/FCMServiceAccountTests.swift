import Foundation
import Testing
@testable import FCM

@Suite(.timeLimit(.minutes(5))) struct FCMServiceAccountTests {
    static let key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"

    static func json(_ fields: [String: String]) -> Data {
        try! JSONSerialization.data(withJSONObject: fields)
    }

    static let valid = [
        "type": "service_account", "project_id": "chat-app", "private_key_id": "0123456789abcdef", "private_key": key,
        "client_email": "relay@chat-app.iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token",
    ]

    @Test func readsWhatTheTokenExchangeNeedsAndNeverShowsTheKey() throws {
        let account = try FCMServiceAccount(json: Self.json(Self.valid), source: "sa.json")
        #expect(account.projectID == "chat-app")
        #expect(account.clientEmail == "relay@chat-app.iam.gserviceaccount.com")
        #expect(account.tokenURI.absoluteString == "https://oauth2.googleapis.com/token")
        #expect(!account.description.contains("PRIVATE KEY") && !account.description.contains("MIIE"))
        #expect(account.description.contains("key 0123…"), "redacted as every secret is (Redaction)")
    }

    @Test(arguments: [
        ("type", "authorized_user", "\"type\""), ("project_id", "", "project_id"), ("private_key", "secret", "PEM"),
        ("token_uri", "http://oauth2.googleapis.com/token", "https"), ("client_email", "", "client_email"),
    ])
    func refusesWhatCannotWork(key: String, value: String, expected: String) {
        var fields = Self.valid
        fields[key] = value
        #expect {
            try FCMServiceAccount(json: Self.json(fields), source: "sa.json")
        } throws: { error in
            let text = String(describing: error)
            return text.contains(expected) && text.contains("sa.json") && !text.contains("MIIE")
        }
    }

    @Test func aFileThatIsNotJSONNamesTheFileOnly() {
        #expect(
            throws: FCMCredentialError.invalidServiceAccount(source: "x", reason: "not a JSON object with the service account's fields")
        ) {
            try FCMServiceAccount(json: Data("-----BEGIN PRIVATE KEY-----".utf8), source: "x")
        }
    }
}
