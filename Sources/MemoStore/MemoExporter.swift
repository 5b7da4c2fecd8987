import BusSchema
import Foundation

/// Writes memos as plain text, Markdown, RFC 5322 messages (`.eml`) or an mbox.
///
/// - `text`: the memo texts, separated by a line `----` between blank lines.
/// - `md`: a `# Memos` document with a `##` section per memo (title = first line) and a
///   line of colour and times.
/// - `eml`: one RFC 5322 message per memo: UTF-8 `text/plain` body (8bit, or base64 when a
///   line is too long or holds control characters), CRLF line ends, the subject (first line)
///   as RFC 2047 `=?UTF-8?B?…?=` encoded words when it is not plain ASCII, `Date:` from the
///   memo's update time. As one document, the messages are separated by a line holding only
///   a form feed (U+000C).
/// - `mbox`: the same messages with LF line ends, each after a `From ` line, body lines
///   matching `>*From ` quoted with one more `>` (mboxrd), a blank line after each.
public struct MemoExporter: Sendable {
    /// The `From:`/`To:` mailbox of exported messages.
    public var mailAddress: String

    public init(mailAddress: String) {
        self.mailAddress = mailAddress
    }

    /// The separator between messages when `eml` is written as one document.
    public static let emlSeparator = "\u{0C}\r\n"

    /// `memos` as one document in `format`.
    public func document(_ memos: [MemoRecord], format: MemoExportFormat) -> String {
        switch format {
        case .text: return memos.map { $0.text + "\n" }.joined(separator: "\n----\n\n")
        case .md: return self.markdown(memos)
        case .eml: return self.emlFiles(memos).map(\.content).joined(separator: Self.emlSeparator)
        case .mbox: return memos.map { self.mboxEntry($0) }.joined()
        }
    }

    /// One `.eml` file per memo: a file name made from the memo id, and the message.
    public func emlFiles(_ memos: [MemoRecord]) -> [MemoExportFile] {
        memos.map { MemoExportFile(name: Self.safeName($0.id) + ".eml", content: self.message($0, lineEnd: "\r\n")) }
    }

    private func markdown(_ memos: [MemoRecord]) -> String {
        var out = "# Memos\n"
        for memo in memos {
            let created = CivilTime(milliseconds: memo.createdAt).readable
            let updated = CivilTime(milliseconds: memo.updatedAt).readable
            let trash = memo.trashedAt == nil ? "" : " · in the trash"
            out += "\n## \(Self.title(memo.text))\n\n"
            if !memo.text.isEmpty { out += memo.text + "\n\n" }
            out += "*\(memo.color) · created \(created) · updated \(updated)\(trash)*\n"
        }
        return out
    }

    /// One RFC 5322 message for `memo`, lines ending in `lineEnd`.
    func message(_ memo: MemoRecord, lineEnd: String) -> String {
        let body = Self.lines(memo.text)
        let plain = body.allSatisfy { line in
            line.utf8.count <= 998
                && !line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f }
        }
        var headers = [
            "From: \(self.mailAddress)", "To: \(self.mailAddress)",
            "Subject: " + Self.encodedSubject(Self.title(memo.text), lineEnd: lineEnd),
            "Date: \(CivilTime(milliseconds: memo.updatedAt).rfc5322)",
            "Message-ID: <\(Self.safeName(memo.id))@memo.uibus>",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(plain ? "8bit" : "base64")",
        ]
        if memo.trashedAt != nil { headers.append("X-Memo-Trashed: yes") }
        let content =
            plain
            ? body : Self.base64Lines(Array(body.map { $0 + "\r\n" }.joined().utf8))
        return (headers + [""] + content).map { $0 + lineEnd }.joined()
    }

    private func mboxEntry(_ memo: MemoRecord) -> String {
        let address = self.mailAddress.split(separator: "<").last.map { String($0.prefix { $0 != ">" }) } ?? "memo"
        let from = "From \(address) \(CivilTime(milliseconds: memo.updatedAt).asctime)\n"
        let message = self.message(memo, lineEnd: "\n")
        var inBody = false
        var out = from
        for line in message.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if inBody && line.drop(while: { $0 == ">" }).hasPrefix("From ") { out += ">" }
            if line.isEmpty { inBody = true }
            out += line + "\n"
        }
        return out + "\n"
    }

    /// The memo's first non-empty line, trimmed to 60 characters, or `(empty memo)`.
    static func title(_ text: String) -> String {
        let first = Self.lines(text).lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        guard let first else { return "(empty memo)" }
        return first.count > 60 ? String(first.prefix(60)) + "…" : first
    }

    /// `subject` as is when it is short printable ASCII, else as UTF-8 base64 encoded words
    /// of at most 75 characters each, split between characters and folded onto new lines.
    static func encodedSubject(_ subject: String, lineEnd: String) -> String {
        if subject.utf8.count <= 66 && subject.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7f }) {
            return subject
        }
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in subject {
            let bytes = Array(character.utf8)
            if chunk.count + bytes.count > 45 && !chunk.isEmpty {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words.joined(separator: lineEnd + " ")
    }

    /// `text` split at LF, CRLF or CR.
    private static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" {
                lines.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        lines.append(current)
        return lines
    }

    private static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Data(bytes).base64EncodedString()
        return stride(from: 0, to: encoded.count, by: 76).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(
                encoded[from..<(encoded.index(from, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }
    }

    /// `id` with everything but ASCII letters, digits, `.`, `_` and `-` as `%XX`.
    static func safeName(_ id: String) -> String {
        var out = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out.isEmpty ? "memo" : out
    }
}
