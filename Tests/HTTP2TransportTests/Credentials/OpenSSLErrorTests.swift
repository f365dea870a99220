import COpenSSL
import Testing
@testable import HTTP2Transport

@Suite(.timeLimit(.minutes(5))) struct OpenSSLErrorTests {
    @Test func drainsTheQueueIntoText() {
        OpenSSLError.clearQueue()
        // Ask for an algorithm that does not exist: OpenSSL queues an "unsupported" error.
        #expect(EVP_MD_fetch(nil, "NO-SUCH-DIGEST", nil) == nil)
        let text = OpenSSLError.drainQueue()
        #expect(text.contains("unsupported"))
        #expect(text.contains("NO-SUCH-DIGEST"))
        #expect(OpenSSLError.drainQueue() == "no detail from OpenSSL")
    }

    @Test func captureNamesTheOperation() {
        OpenSSLError.clearQueue()
        #expect(EVP_MD_fetch(nil, "NO-SUCH-DIGEST", nil) == nil)
        let error = OpenSSLError.capture("EVP_MD_fetch")
        #expect(error.operation == "EVP_MD_fetch")
        #expect(error.description.hasPrefix("EVP_MD_fetch failed: "))
        #expect(error.description.contains("unsupported"))
    }
}
