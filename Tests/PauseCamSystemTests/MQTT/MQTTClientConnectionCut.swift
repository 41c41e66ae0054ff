import CMosquitto
@testable import PauseCamSystem

extension MQTTClient {
    /// Cuts the TCP connection under libmosquitto without an MQTT goodbye, as a crash or a pulled cable would: the
    /// broker publishes the will, and the client reconnects. Only the broker-side tests do this.
    func dropConnectionWithoutGoodbye() {
        _ = pausecam_mosquitto_cut_connection(handle)
    }
}
