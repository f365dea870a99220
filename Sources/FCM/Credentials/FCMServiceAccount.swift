import Foundation
import LogRedaction

/// A Google service account's JSON key file, as the Firebase console downloads it: what the
/// OAuth 2.0 token exchange needs (the RS256 assertion's issuer, key and audience) and the
/// project the messages go to. The private key never appears in `description` or errors.
public struct FCMServiceAccount: Sendable, Hashable, CustomStringConvertible {
    public var projectID: String
    public var clientEmail: String
    public var privateKeyID: String
    /// PEM PKCS#8 RSA private key.
    public var privateKeyPEM: String
    /// Where access tokens come from (`https://oauth2.googleapis.com/token`).
    public var tokenURI: URL

    /// The scope FCM HTTP v1 needs.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    /// - Parameter source: names the file (or credential) in errors.
    public init(json: Data, source: String) throws(FCMCredentialError) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw .invalidServiceAccount(source: source, reason: "not a JSON object with the service account's fields")
        }
        guard file.type == "service_account" else {
            throw .invalidServiceAccount(source: source, reason: "\"type\" is \"\(file.type ?? "")\", not \"service_account\"")
        }
        func required(_ value: String?, _ key: String) throws(FCMCredentialError) -> String {
            guard let value, !value.isEmpty else { throw .invalidServiceAccount(source: source, reason: "\"\(key)\" is missing") }
            return value
        }
        projectID = try required(file.project_id, "project_id")
        clientEmail = try required(file.client_email, "client_email")
        privateKeyID = file.private_key_id ?? ""
        privateKeyPEM = try required(file.private_key, "private_key")
        guard privateKeyPEM.contains("-----BEGIN PRIVATE KEY-----") else {
            throw .invalidServiceAccount(source: source, reason: "\"private_key\" is not a PEM PKCS#8 private key")
        }
        let uri = try required(file.token_uri, "token_uri")
        guard let url = URL(string: uri), url.scheme == "https", url.host?.isEmpty == false else {
            throw .invalidServiceAccount(source: source, reason: "\"token_uri\" must be an https URL")
        }
        tokenURI = url
    }

    /// Reads a key file.
    public init(file path: String) throws(FCMCredentialError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidServiceAccount(source: path, reason: "cannot read the file")
        }
        try self.init(json: data, source: path)
    }

    public var description: String { "service account \(clientEmail) (project \(projectID), key \(Redaction.redact(privateKeyID)))" }

    private struct File: Decodable {
        var type: String?
        var project_id: String?
        var private_key_id: String?
        var private_key: String?
        var client_email: String?
        var token_uri: String?
    }
}

/// Why FCM credentials cannot be used. Never holds key material.
public enum FCMCredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidServiceAccount(source: String, reason: String)
    case signingFailed(source: String, reason: String)

    public var description: String {
        switch self {
        case .invalidServiceAccount(let source, let reason): "FCM service account \(source): \(reason)"
        case .signingFailed(let source, let reason): "FCM service account \(source): signing the OAuth assertion failed: \(reason)"
        }
    }
}
