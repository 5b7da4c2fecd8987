extension NumberPadState.Layout {
    /// LKNumberPad's default (`startWithZero` NO): 1 on the left, 0 on the right, like the
    /// standard keyboard. The state machine and the drawing both start from it.
    public static let standard = NumberPadState.Layout.phone

    /// The digits from the leftmost key to the rightmost.
    public var digits: [Int] { self == .startWithZero ? Array(0...9) : Array(1...9) + [0] }
}
