import Foundation
import MockSupport
import Testing

/// What token endpoints read: a form body and a bearer header.
@Suite(.timeLimit(.minutes(5))) struct TokenEndpointInputTests {
    @Test func formFieldsAreDecoded() {
        let fields = FormFields.parse(Data("grant_type=client_credentials&client_id=100&client_secret=a%2Bb+c%3D&empty=&bare&x=1&x=2".utf8))
        #expect(
            fields == [
                "grant_type": "client_credentials", "client_id": "100", "client_secret": "a+b c=", "empty": "", "bare": "", "x": "2",
            ])
        #expect(FormFields.parse(Data()) == [:])
    }

    @Test func theBearerTokenIsTakenInAnyCaseOfTheScheme() {
        #expect(BearerToken.from(authorization: "Bearer abc") == "abc")
        #expect(BearerToken.from(authorization: "bearer abc") == "abc")
        #expect(BearerToken.from(authorization: "BEARER a b") == "a b")
        #expect(BearerToken.from(authorization: "Bearer ") == nil)
        #expect(BearerToken.from(authorization: "Basic abc") == nil)
        #expect(BearerToken.from(authorization: nil) == nil)
    }
}
