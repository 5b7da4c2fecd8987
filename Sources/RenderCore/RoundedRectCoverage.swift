/// Anti-aliased coverage of a pixel by a rounded rectangle.
enum RoundedRectCoverage {
    /// Coverage (0…255) of pixel (x, y) by the rectangle [0, width]×[0, height] with corner
    /// `radius`: 255 away from the corners, and in a corner 0.5 − (distance past the arc).
    static func at(x: Int, y: Int, width: Int, height: Int, radius: Double) -> UInt8 {
        let px = Double(x) + 0.5
        let py = Double(y) + 0.5
        let cx = px < radius ? radius : (px > Double(width) - radius ? Double(width) - radius : px)
        let cy = py < radius ? radius : (py > Double(height) - radius ? Double(height) - radius : py)
        if cx == px || cy == py { return 255 }
        let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot() - radius
        let coverage = min(max(0.5 - distance, 0), 1)
        return UInt8((coverage * 255).rounded())
    }
}
