import Crypto
import Foundation
import Testing

@testable import WebPush

@Suite(.timeLimit(.minutes(1))) struct MessageEncryptionTests {
    /// RFC 8291 Appendix A: the example's keys and salt give the example's message, byte for byte.
    @Test func theRFCExampleEncryptsToTheRFCMessage() throws {
        let plaintext = Array("When I grow up, I want to be a watermelon".utf8)
        let serverKey = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: Base64URL.decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")!)
        let body = try MessageEncryption.encrypt(
            plaintext,
            p256dh: Base64URL.decode(
                "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")!,
            auth: Base64URL.decode("BTBZMqHH6r4Tts7J_aSIgg")!, serverKey: serverKey, salt: Base64URL.decode("DGv6ra1nlYgDCS1FRnbzlw")!)
        #expect(
            Base64URL.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }
}
