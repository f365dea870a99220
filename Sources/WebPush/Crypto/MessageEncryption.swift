import Crypto
import Foundation

/// RFC 8291 message encryption: the payload as one `aes128gcm` record (RFC 8188) for one
/// subscription, keyed by ECDH between a fresh server key and the browser's `p256dh`, and the
/// browser's `auth` secret.
enum MessageEncryption {
    /// The record size written in the header; the one record is always smaller.
    static let recordSize: UInt32 = 4096
    /// What the header (salt 16, record size 4, key id length 1, key 65) and the tag (16) and the
    /// padding delimiter (1) add to the plaintext.
    static let overhead = 16 + 4 + 1 + 65 + 16 + 1
    /// RFC 8291 §4: push services must take 4096 bytes of encrypted body.
    static let maximumBodyBytes = 4096
    static var maximumPlaintextBytes: Int { maximumBodyBytes - overhead }

    /// The request body for `plaintext`. `serverKey` and `salt` are fresh for every message; tests
    /// pass RFC 8291's example values.
    static func encrypt(
        _ plaintext: some Collection<UInt8>, p256dh: [UInt8], auth: [UInt8],
        serverKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(), salt: [UInt8]? = nil
    ) throws -> [UInt8] {
        let browserKey = try P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        let serverPublic = Array(serverKey.publicKey.x963Representation)
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: browserKey)
        // §3.3: IKM = HKDF(salt: auth, ikm: ECDH, info: "WebPush: info" 0x00 ua_public as_public, 32).
        let keyInfo = Array("WebPush: info".utf8) + [0] + p256dh + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let salt = salt ?? (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        // RFC 8188 §2.2-2.3: CEK and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // The last (only) record ends with the delimiter 0x02 and no padding.
        let sealed = try AES.GCM.seal(
            Array(plaintext) + [2], using: cek, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
        var body = salt
        body.reserveCapacity(overhead + plaintext.count)
        withUnsafeBytes(of: recordSize.bigEndian) { body += $0 }
        body.append(UInt8(serverPublic.count))
        body += serverPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }
}
