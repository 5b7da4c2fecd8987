import BusSchema
import GestureCore
import Testing

@Suite struct VelocityTrackerTests {
    static func t(_ nanoseconds: Int64) -> SourceInstant { SourceInstant(nanoseconds: nanoseconds) }

    @Test func constantVelocityIsExact() {
        var tracker = VelocityTracker()
        for step in 0..<12 {
            let t = Int64(step) * 8_000_000
            tracker.add(at: Self.t(t), x: 100 + 0.5 * Double(t) / 1e6, y: 50 - 0.25 * Double(t) / 1e6)
        }
        let velocity = tracker.velocity(at: Self.t(88_000_000))
        #expect(abs(velocity.x - 500) < 1e-6)
        #expect(abs(velocity.y + 250) < 1e-6)
    }

    @Test func quadraticMotionGivesTheInstantaneousSlope() {
        // x = 10 000·t² (t in s): the LSQ2 fit is exact and its slope at the newest sample is 20 000·t.
        var tracker = VelocityTracker()
        for step in 0...10 {
            let t = Double(step) * 0.008
            tracker.add(at: Self.t(Int64(step) * 8_000_000), x: 10_000 * t * t, y: 0)
        }
        #expect(abs(tracker.velocity(at: Self.t(80_000_000)).x - 1600) < 1e-6)
    }

    @Test func onlyTheLast100msCount() {
        // Fast motion more than 100 ms ago is forgotten.
        var tracker = VelocityTracker()
        for step in 0...30 {
            let ms = Double(step) * 8
            let x = ms < 100 ? ms * 5 : 500 + (ms - 100) * 0.1
            tracker.add(at: Self.t(Int64(ms * 1e6)), x: x, y: 0)
        }
        #expect(abs(tracker.velocity(at: Self.t(240_000_000)).x - 100) < 1e-6)
    }

    @Test func aPauseOver40msResetsAndALateLiftGivesZero() {
        var tracker = VelocityTracker()
        for step in 0...5 { tracker.add(at: Self.t(Int64(step) * 8_000_000), x: Double(step) * 8, y: 0) }
        #expect(tracker.velocity(at: Self.t(81_000_000)) == (x: 0, y: 0))
        tracker.add(at: Self.t(100_000_000), x: 40, y: 0)
        #expect(tracker.velocity(at: Self.t(100_000_000)) == (x: 0, y: 0))
    }

    @Test(
        arguments: [
            // Android VelocityTracker_test.cpp recorded flings (Sailfish), with their LSQ2 results.
            (
                "SailfishFlingUpSlow1", 951.698181, -3044.966064,
                [
                    (235_089_067_457_000, 528.00, 983.00), (235_089_084_684_000, 527.00, 981.00),
                    (235_089_093_349_000, 527.00, 977.00), (235_089_095_677_625, 527.00, 975.93),
                    (235_089_101_859_000, 527.00, 970.00), (235_089_110_378_000, 528.00, 960.00),
                    (235_089_112_497_111, 528.25, 957.51), (235_089_118_760_000, 531.00, 946.00),
                    (235_089_126_686_000, 535.00, 931.00), (235_089_129_316_820, 536.33, 926.02),
                    (235_089_135_199_000, 540.00, 914.00), (235_089_144_297_000, 546.00, 896.00),
                    (235_089_146_136_443, 547.21, 892.36), (235_089_152_923_000, 553.00, 877.00),
                    (235_089_160_784_000, 559.00, 851.00), (235_089_162_955_851, 560.66, 843.82),
                ]
            ),
            (
                "SailfishFlingUpFast1", 5991.866699, -15093.995117,
                [
                    (920_922_149_000, 561.00, 1412.00), (920_930_185_000, 559.00, 1377.00),
                    (920_930_262_463, 558.98, 1376.66),
                    (920_938_547_000, 559.00, 1371.00), (920_947_096_857, 562.91, 1342.68),
                    (920_947_302_000, 563.00, 1342.00),
                    (920_955_502_000, 577.00, 1272.00), (920_963_931_021, 596.87, 1190.54),
                    (920_963_987_000, 597.00, 1190.00),
                    (920_972_530_000, 631.00, 1093.00), (920_980_765_511, 671.31, 994.68),
                    (920_980_906_000, 672.00, 993.00),
                    (920_989_261_000, 715.00, 903.00),
                ]
            ),
            (
                "SailfishFlingDownSlow1", -398.303894, 3969.099854,
                [
                    (235_655_749_552_755, 582.00, 432.49), (235_655_750_638_000, 582.00, 433.00),
                    (235_655_758_865_000, 582.00, 440.00), (235_655_766_221_523, 581.16, 448.43),
                    (235_655_767_594_000, 581.00, 450.00), (235_655_776_044_000, 580.00, 462.00),
                    (235_655_782_890_696, 579.18, 474.35), (235_655_784_360_000, 579.00, 477.00),
                    (235_655_792_795_000, 578.00, 496.00), (235_655_799_559_531, 576.27, 515.04),
                    (235_655_800_612_000, 576.00, 518.00), (235_655_809_535_000, 574.00, 542.00),
                    (235_655_816_988_015, 572.17, 564.86), (235_655_817_685_000, 572.00, 567.00),
                    (235_655_825_981_000, 569.00, 595.00), (235_655_833_808_653, 566.26, 620.60),
                    (235_655_834_541_000, 566.00, 623.00), (235_655_842_893_000, 563.00, 649.00),
                ]
            ),
        ] as [(String, Double, Double, [(Int64, Double, Double)])])
    func recordedFlingsMatchAndroidLSQ2WithinItsTolerance(
        fling: (String, Double, Double, [(Int64, Double, Double)])
    ) {
        var tracker = VelocityTracker()
        for (tNs, x, y) in fling.3 { tracker.add(at: Self.t(tNs), x: x, y: y) }
        let velocity = tracker.velocity(at: Self.t(fling.3.last!.0))
        // Android's test accepts 20 % (VELOCITY_TOLERANCE); the same fit agrees to well within 0.1 %.
        #expect(abs(velocity.x - fling.1) <= abs(fling.1) * 0.001, "\(fling.0) x: \(velocity.x)")
        #expect(abs(velocity.y - fling.2) <= abs(fling.2) * 0.001, "\(fling.0) y: \(velocity.y)")
    }
}
