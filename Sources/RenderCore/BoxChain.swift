/// A cascade of identical extended boxes run in one sweep along a line: every box keeps a
/// running sum, and the inputs it still has to drop live in a ring instead of a scratch line.
///
/// A box of radius l (d = l + 1) pushed input `x[e]` outputs position e − d:
/// `S + (α − 1)·x[e − 2d] + α·x[e]`, where S is the sum of its previous 2d inputs
/// `x[e − 2d … e − 1]`, which then advances by `x[e] − x[e − 2d]`. Only the last multiply-add
/// waits for `x[e]`, so the chain of boxes adds about one FMA of latency per box to a step. The
/// output is pushed straight into the next box, so the cascade never writes a whole
/// intermediate line. Slot e mod 2d of the ring holds `x[e − 2d]` of every box side by side:
/// read, then overwrite, so the ring has exactly 2d slots of ``count`` lanes each
/// (σ 100: 200 slots × 3 × 64 B).
///
/// The nested generic types (`ChainBox<ChainBox<ChainBox<ChainEnd>>>` for three boxes) keep
/// every running sum in a register once specialized, whatever the number of boxes.
protocol BoxChain {
    /// Boxes in the chain.
    static var count: Int { get }
    init()
    /// Fills the chain's ring entries and sums as if the line before had been `value` forever
    /// (a replicated edge: the box output of a constant is the constant times the box weight).
    /// `stride` is the number of entries per ring slot (the whole chain's ``count``).
    mutating func settle(
        on value: SIMD16<Float>, ring: UnsafeMutablePointer<SIMD16<Float>>, stride: Int, _ box: BoxTaps)
    /// Pushes the next input through every box; returns the last box's unnormalized output.
    mutating func push(_ value: SIMD16<Float>, _ slot: UnsafeMutablePointer<SIMD16<Float>>, _ box: BoxTaps)
        -> SIMD16<Float>
}

/// One extended box's coefficients, and the ring geometry they imply. Scalars, not lanes: a
/// broadcast in the loop lets both 8-lane halves share one register.
struct BoxTaps {
    let alpha: Float
    let alphaMinusOne: Float
    let weight: Float
    /// Ring slots: 2d, the distance between the value leaving and the value entering.
    let slots: Int

    init(_ box: ExtendedBox) {
        alpha = box.alpha
        alphaMinusOne = box.alpha - 1
        weight = box.weight
        slots = 2 * (box.l + 1)
    }
}

/// The end of a chain: passes the last box's output through.
struct ChainEnd: BoxChain {
    static var count: Int { 0 }

    @inline(__always)
    mutating func settle(
        on value: SIMD16<Float>, ring: UnsafeMutablePointer<SIMD16<Float>>, stride: Int, _ box: BoxTaps
    ) {}

    @inline(__always)
    mutating func push(_ value: SIMD16<Float>, _ slot: UnsafeMutablePointer<SIMD16<Float>>, _ box: BoxTaps)
        -> SIMD16<Float>
    { value }
}

/// One extended box followed by the rest of the chain; its ring entry is the slot's first lane
/// group, the rest of the chain's follow.
struct ChainBox<Next: BoxChain>: BoxChain {
    static var count: Int { Next.count + 1 }
    private var sum = SIMD16<Float>()
    private var next = Next()

    init() {}

    @inline(__always)  // the chain's address must not escape, or its sums stay in memory
    mutating func settle(
        on value: SIMD16<Float>, ring: UnsafeMutablePointer<SIMD16<Float>>, stride: Int, _ box: BoxTaps
    ) {
        for slot in 0..<box.slots { ring[slot * stride] = value }
        sum = value * Float(box.slots)
        next.settle(on: value * box.weight, ring: ring + 1, stride: stride, box)
    }

    @inline(__always)
    mutating func push(_ value: SIMD16<Float>, _ slot: UnsafeMutablePointer<SIMD16<Float>>, _ box: BoxTaps)
        -> SIMD16<Float>
    {
        let leaving = slot.pointee
        slot.pointee = value
        let output = sum.addingProduct(box.alphaMinusOne, leaving).addingProduct(box.alpha, value)
        sum += value - leaving
        return next.push(output, slot + 1, box)
    }
}
