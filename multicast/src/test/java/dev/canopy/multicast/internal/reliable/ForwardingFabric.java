package dev.canopy.multicast.internal.reliable;

import dev.canopy.multicast.internal.fabric.Fabric;
import dev.canopy.multicast.internal.fabric.MulticastGroup;
import dev.canopy.multicast.internal.fabric.ReceiveHandler;
import dev.canopy.multicast.internal.fabric.SendOutcome;
import java.nio.ByteBuffer;

/** A fabric endpoint that passes everything to another; tests override what they watch or change (sends, mostly). */
abstract class ForwardingFabric implements Fabric {

    protected final Fabric fabric;

    ForwardingFabric(Fabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public String kind() {
        return fabric.kind();
    }

    @Override
    public int mtu() {
        return fabric.mtu();
    }

    @Override
    public void join(MulticastGroup group) {
        fabric.join(group);
    }

    @Override
    public void leave(MulticastGroup group) {
        fabric.leave(group);
    }

    @Override
    public SendOutcome send(MulticastGroup group, ByteBuffer datagram) {
        return fabric.send(group, datagram);
    }

    @Override
    public void postReceive(ByteBuffer buffer) {
        fabric.postReceive(buffer);
    }

    @Override
    public int postedReceives() {
        return fabric.postedReceives();
    }

    @Override
    public void receiveHandler(ReceiveHandler handler) {
        fabric.receiveHandler(handler);
    }

    @Override
    public void close() {
        fabric.close();
    }
}
