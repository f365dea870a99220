import COpenSSL
import Foundation

/// Readable facts from an `X509*` certificate.
enum X509Info {
    static func notBefore(_ certificate: OpaquePointer) -> Date {
        date(X509_get0_notBefore(certificate))
    }

    static func notAfter(_ certificate: OpaquePointer) -> Date {
        date(X509_get0_notAfter(certificate))
    }

    /// ASN.1 UTCTime/GeneralizedTime to `Date`; distantPast if OpenSSL cannot read it (it
    /// already parsed the certificate, so that means a malformed validity field).
    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return .distantPast }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// Subject attributes in certificate order, short names as keys ("CN", "O", "UID", ...).
    static func subjectEntries(_ certificate: OpaquePointer) -> [(name: String, value: String)] {
        guard let subject = X509_get_subject_name(certificate) else { return [] }
        var entries: [(name: String, value: String)] = []
        for index in 0..<X509_NAME_entry_count(subject) {
            guard let entry = X509_NAME_get_entry(subject, index) else { continue }
            let nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry))
            let name = OBJ_nid2sn(nid).map { String(cString: $0) } ?? "OID.\(nid)"
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry))
            guard length >= 0, let utf8 else { continue }
            entries.append(
                (
                    name,
                    String(
                        decoding: UnsafeBufferPointer(start: utf8, count: Int(length)),
                        as: UTF8.self)
                ))
            CRYPTO_free(utf8, nil, 0)
        }
        return entries
    }

    /// One line, e.g. `CN=Apple Push Services: com.example.app, O=Example Inc`.
    static func subject(_ certificate: OpaquePointer) -> String {
        subjectEntries(certificate).map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
    }
}
