/// Decibels to linear amplitude without a C math library (the pure modules
/// import none): 10^(dB/20) = e^(dB·ln10/20), with e^x from 2^k·e^r, |r| ≤ ln2/2,
/// and a Taylor series for e^r that is exact to a few units in the last place.
public enum Decibels {
    public static func linear(_ decibels: Double) -> Double {
        exp(decibels * 0.11512925464970228420089957273421821038005507443143864880166639504837863048386762)
    }

    /// 20·log10(linear), for reports (peaks in dBFS); nil for 0 or less.
    public static func fromLinear(_ linear: Double) -> Double? {
        guard linear > 0, linear.isFinite else { return nil }
        // log(x) = e·ln2 + log(m), m in [1, 2); log(m) = 2·atanh((m-1)/(m+1)) as a series.
        let exponent = Double(linear.exponent)
        let m = linear.significand
        let s = (m - 1) / (m + 1)
        var term = s
        var sum = 0.0
        var n = 1.0
        while abs(term) > 1e-18 {
            sum += term / n
            term *= s * s
            n += 2
        }
        let natural = exponent * 0.6931471805599453094 + 2 * sum
        return 20 * natural / 2.302585092994045684
    }

    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? .infinity : 0 }
        if x > 709 { return .infinity }
        if x < -745 { return 0 }
        let ln2 = 0.6931471805599453094
        let k = (x / ln2).rounded()
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term *= r / Double(n)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(k), significand: 1)
    }
}
