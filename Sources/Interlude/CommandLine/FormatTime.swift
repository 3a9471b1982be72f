/// m:ss or h:mm:ss.
func formatTime(_ seconds: Double) -> String {
    let total = max(0, Int(seconds))
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
    let ss = secs < 10 ? "0\(secs)" : "\(secs)"
    if hours > 0 {
        let mm = minutes < 10 ? "0\(minutes)" : "\(minutes)"
        return "\(hours):\(mm):\(ss)"
    }
    return "\(minutes):\(ss)"
}
