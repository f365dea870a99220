import Crypto
import Foundation

/// The user agent's side of RFC 8291: opens an `aes128gcm` body with the subscription's private
/// key and auth secret, as a browser does. Written from the RFCs apart from the relay's
/// encryption; the Python suites check both against `http-ece`.
enum MessageDecryption {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case truncated
        case badKeyID
        case badKey
        case cannotOpen
        case badPadding

        var description: String {
            switch self {
            case .truncated: "the body is shorter than its header"
            case .badKeyID: "the key id is not a 65-byte P-256 key"
            case .badKey: "the key id is not a point on P-256"
            case .cannotOpen: "the record does not decrypt (wrong keys or altered bytes)"
            case .badPadding: "the record does not end with the last-record delimiter"
            }
        }
    }

    static func decrypt(_ body: [UInt8], privateKey: P256.KeyAgreement.PrivateKey, auth: [UInt8]) throws(Failure) -> [UInt8] {
        guard body.count >= 21 else { throw .truncated }
        let salt = Array(body[0..<16])
        let idLength = Int(body[20])
        guard idLength == 65, body.count >= 21 + idLength + 16 else { throw .badKeyID }
        let serverPublic = Array(body[21..<(21 + idLength)])
        let record = Array(body[(21 + idLength)...])
        guard let serverKey = try? P256.KeyAgreement.PublicKey(x963Representation: serverPublic),
            let shared = try? privateKey.sharedSecretFromKeyAgreement(with: serverKey)
        else { throw .badKey }
        let receiverPublic = Array(privateKey.publicKey.x963Representation)
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverPublic + serverPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let plain: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }), ciphertext: record.dropLast(16), tag: record.suffix(16))
            plain = Array(try AES.GCM.open(box, using: cek))
        } catch {
            throw .cannotOpen
        }
        // Padding: zeros after the delimiter, which is 0x02 in the last record.
        guard let end = plain.lastIndex(where: { $0 != 0 }), plain[end] == 2 else { throw .badPadding }
        return Array(plain[..<end])
    }
}
