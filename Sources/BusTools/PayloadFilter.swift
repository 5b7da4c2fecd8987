import BusSchema

/// The `--filter EXPR` language: comparisons of payload fields joined by `and`, `or`, `not`
/// and parentheses. Nothing is evaluated beyond that.
///
/// ```
/// expression := term ("or" term)*
/// term       := factor ("and" factor)*
/// factor     := "not" factor | "(" expression ")" | comparison
/// comparison := PATH [("==" | "!=" | "<" | "<=" | ">" | ">=") LITERAL]
/// LITERAL    := number | "text" | 'text' | true | false | null
/// ```
/// A bare PATH is true when the field exists and is neither `false` nor `null`. Numbers compare
/// as numbers whatever their encoding; `<`, `>` on text compare it in code-point order; a missing
/// field makes every comparison but `!=` false. Example: `kind == "tap" and x > 100`.
public indirect enum PayloadFilter: Sendable, Equatable {
    case any([PayloadFilter])
    case all([PayloadFilter])
    case not(PayloadFilter)
    case present(FieldPath)
    case compare(FieldPath, Operator, Value)

    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    /// Parses an expression.
    ///
    /// - Throws: ``ToolError`` naming the column of the first problem.
    public init(_ text: String) throws {
        var parser = Parser(tokens: try Lexer.tokens(text), text: text)
        self = try parser.expression()
        if let extra = parser.peek { throw parser.problem("unexpected \(extra.text)", at: extra) }
    }

    /// Whether `payload` passes.
    public func matches(_ payload: Value) -> Bool {
        switch self {
        case .any(let filters): return filters.contains { $0.matches(payload) }
        case .all(let filters): return filters.allSatisfy { $0.matches(payload) }
        case .not(let filter): return !filter.matches(payload)
        case .present(let path):
            guard let value = path.value(in: payload) else { return false }
            return value != .null && value != .bool(false)
        case .compare(let path, let op, let literal):
            guard let value = path.value(in: payload) else { return op == .notEqual }
            return Self.compare(value, op, literal)
        }
    }

    private static func compare(_ value: Value, _ op: Operator, _ literal: Value) -> Bool {
        let order: Int?
        if let a = value.doubleValue, let b = literal.doubleValue, Self.isNumber(value), Self.isNumber(literal) {
            order = a < b ? -1 : (a > b ? 1 : 0)
        } else if let a = value.stringValue, let b = literal.stringValue {
            order = a < b ? -1 : (a > b ? 1 : 0)
        } else {
            order = value == literal ? 0 : nil
        }
        switch op {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order.map { $0 < 0 } ?? false
        case .lessOrEqual: return order.map { $0 <= 0 } ?? false
        case .greater: return order.map { $0 > 0 } ?? false
        case .greaterOrEqual: return order.map { $0 >= 0 } ?? false
        }
    }

    private static func isNumber(_ value: Value) -> Bool {
        switch value {
        case .int, .uint, .double: return true
        default: return false
        }
    }

    struct Token: Equatable {
        enum Kind: Equatable {
            case word, text, number, symbol
        }

        var kind: Kind
        var text: String
        var column: Int
    }

    enum Lexer {
        static func tokens(_ text: String) throws -> [Token] {
            let characters = Array(text)
            var tokens: [Token] = []
            var index = 0
            while index < characters.count {
                let character = characters[index]
                let column = index + 1
                if character == " " || character == "\t" {
                    index += 1
                } else if character == "(" || character == ")" {
                    tokens.append(Token(kind: .symbol, text: String(character), column: column))
                    index += 1
                } else if "=!<>".contains(character) {
                    var symbol = String(character)
                    if index + 1 < characters.count, characters[index + 1] == "=" { symbol.append("=") }
                    guard Operator(rawValue: symbol) != nil else {
                        throw ToolError(
                            "--filter: '\(symbol)' at column \(column) is not an operator (== != < <= > >=)")
                    }
                    tokens.append(Token(kind: .symbol, text: symbol, column: column))
                    index += symbol.count
                } else if character == "\"" || character == "'" {
                    guard let end = characters[(index + 1)...].firstIndex(of: character) else {
                        throw ToolError("--filter: text opened at column \(column) is never closed")
                    }
                    tokens.append(Token(kind: .text, text: String(characters[(index + 1)..<end]), column: column))
                    index = end + 1
                } else {
                    var end = index
                    while end < characters.count, !" \t()=!<>\"'".contains(characters[end]) { end += 1 }
                    let word = String(characters[index..<end])
                    let isNumber = Double(word) != nil && (character.isNumber || character == "-" || character == ".")
                    tokens.append(Token(kind: isNumber ? .number : .word, text: word, column: column))
                    index = end
                }
            }
            return tokens
        }
    }

    struct Parser {
        var tokens: [Token]
        var text: String
        var position = 0

        var peek: Token? { self.position < self.tokens.count ? self.tokens[self.position] : nil }

        mutating func next() -> Token? {
            defer { self.position += 1 }
            return self.peek
        }

        func problem(_ message: String, at token: Token?) -> ToolError {
            let column = token?.column ?? (self.text.count + 1)
            return ToolError("--filter '\(self.text)': \(message) at column \(column)")
        }

        /// `term or term …`
        mutating func expression() throws -> PayloadFilter {
            try self.joined(by: "or", into: PayloadFilter.any) { try $0.term() }
        }

        /// `factor and factor …`
        mutating func term() throws -> PayloadFilter {
            try self.joined(by: "and", into: PayloadFilter.all) { try $0.factor() }
        }

        /// One `operand`, or several joined by the word `word` and combined by `combine`.
        private mutating func joined(
            by word: String, into combine: ([PayloadFilter]) -> PayloadFilter,
            _ operand: (inout Parser) throws -> PayloadFilter
        ) throws -> PayloadFilter {
            var operands = [try operand(&self)]
            while self.peek?.kind == .word, self.peek?.text == word {
                self.position += 1
                operands.append(try operand(&self))
            }
            return operands.count == 1 ? operands[0] : combine(operands)
        }

        mutating func factor() throws -> PayloadFilter {
            guard let token = self.next() else { throw self.problem("expected a field", at: nil) }
            if token.kind == .word, token.text == "not" { return .not(try self.factor()) }
            if token.kind == .symbol, token.text == "(" {
                let inner = try self.expression()
                guard let close = self.next(), close.text == ")" else { throw self.problem("expected ')'", at: nil) }
                _ = close
                return inner
            }
            guard token.kind == .word, !["and", "or"].contains(token.text) else {
                throw self.problem("expected a field, found \(token.text)", at: token)
            }
            let path = try FieldPath(token.text)
            guard let symbol = self.peek, symbol.kind == .symbol, let op = Operator(rawValue: symbol.text) else {
                return .present(path)
            }
            self.position += 1
            guard let literal = self.next() else {
                throw self.problem("expected a value after \(op.rawValue)", at: nil)
            }
            return .compare(path, op, try self.literal(literal))
        }

        func literal(_ token: Token) throws -> Value {
            switch token.kind {
            case .text: return .string(token.text)
            case .number:
                if let int = Int64(token.text) { return .int(int) }
                return .double(Double(token.text)!)
            case .word:
                switch token.text {
                case "true": return .bool(true)
                case "false": return .bool(false)
                case "null": return .null
                default: throw self.problem("expected a value (number, \"text\", true, false, null)", at: token)
                }
            case .symbol: throw self.problem("expected a value, found \(token.text)", at: token)
            }
        }
    }
}
