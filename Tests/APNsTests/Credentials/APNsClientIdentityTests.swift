import Foundation
import HTTP2Transport
import Testing

@testable import APNs

/// The APNs side of a push certificate: the topics it names, and errors that say what Apple
/// wants. Loading and checking the files is the transport's (`TLSClientIdentityTests`).
@Suite(.timeLimit(.minutes(5))) struct APNsClientIdentityTests {
    @Test func p12AndPEMNameTheCertificatesTopic() throws {
        let p12 = try APNsClientIdentity.p12(path: CredentialFixtures.dev("client.p12"), password: "secret")
        #expect(p12.topics == ["com.example.pushrelay"])
        #expect(p12.source == CredentialFixtures.dev("client.p12"))
        let pem = try APNsClientIdentity.pem(
            certificatePath: CredentialFixtures.dev("client.pem"), keyPath: CredentialFixtures.dev("client.key"))
        #expect(pem.topics == ["com.example.pushrelay"])
        #expect(pem.notAfter == p12.notAfter)
        #expect(pem.description.hasPrefix("APNsClientIdentity(CN=Apple Push Services: com.example.pushrelay"))
    }

    @Test(arguments: [
        ([("UID", "com.example.a"), ("CN", "Apple Push Services: com.example.a"), ("O", "Example")], ["com.example.a"]),
        ([("CN", "Apple Development IOS Push Services: com.example.old ")], ["com.example.old"]),
        ([("CN", "Some other certificate"), ("O", "Push Services: no")], []),
    ])
    func topicsComeFromTheSubjectsUIDAndCN(subject: [(String, String)], topics: [String]) {
        #expect(APNsClientIdentity.topics(subject.map { (name: $0.0, value: $0.1) }) == topics)
    }

    @Test func aFileErrorIsACredentialErrorNamingTheFile() {
        let path = CredentialFixtures.dev("client.p12")
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try APNsClientIdentity.p12(path: path, password: "not-the-password")
        }
        #expect(error == .credential(.wrongPassword(path: path)))
        #expect(error?.description == "the password for credential file \(path) is wrong")
    }

    @Test func anExpiredCertificateSaysWhereToGetANewOne() throws {
        let path = CredentialFixtures.bad("expired.p12")
        let error = try #require(
            CredentialFixtures.credentialError { () throws(APNsCredentialError) in
                try APNsClientIdentity.p12(path: path, password: nil)
            })
        guard case .credential(.expiredCertificate(path, let notAfter)) = error else {
            Issue.record("expected expiredCertificate, got \(error)")
            return
        }
        #expect(
            error.description
                == "certificate in \(path) expired on \(notAfter.formatted(.iso8601)); "
                + "create a new push certificate in the Apple Developer account")
    }
}
