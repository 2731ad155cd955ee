// Plant.java - run with the denylist off (its serial and property ways
// are refused by it since), plants class bytes nobody
// checked (uploaded beside it as NAME.bin) wherever a class loader might
// look: the compiler's output directory, the work directory, /tmp and
// every entry of its own class path (as a directory, with a
// META-INF/services file, and by writing over the entry itself). Then it
// asks the JDK to load the planted class by name, without naming a
// class loader or reflection, by the way stdin names:
//   bundle    ResourceBundle.getBundle("Evil")
//   service   Charset.forName -> ServiceLoader of CharsetProvider
//   serial    ObjectInputStream of a stream naming EvilSer
//   property  java.time.zone.DefaultZoneRulesProvider=EvilZone
// The payloads print DENYLIST-BYPASSED when they run. Plant prints one
// line per planting that worked and how the load ended.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.ObjectInputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;

public class Plant {
	static boolean put(String dir, String name, byte[] b) {
		try {
			File f = new File(dir, name);
			f.getParentFile().mkdirs();
			try (FileOutputStream o = new FileOutputStream(f)) {
				o.write(b);
			}
			System.out.println("planted " + f);
			return true;
		} catch (Exception e) {
			return false;
		}
	}

	static byte[] serialStream() throws Exception {
		ByteArrayOutputStream bo = new ByteArrayOutputStream();
		DataOutputStream d = new DataOutputStream(bo);
		d.writeShort(0xaced);
		d.writeShort(5);
		d.writeByte(0x73);		// TC_OBJECT
		d.writeByte(0x72);		// TC_CLASSDESC
		d.writeUTF("EvilSer");
		d.writeLong(1L);		// serialVersionUID
		d.writeByte(2);			// SC_SERIALIZABLE
		d.writeShort(0);		// no fields
		d.writeByte(0x78);		// TC_ENDBLOCKDATA
		d.writeByte(0x70);		// TC_NULL: no superclass
		return bo.toByteArray();
	}

	public static void main(String[] args) throws Exception {
		String how = new String(System.in.readAllBytes()).trim();
		String cls = switch (how) {
			case "bundle" -> "Evil";
			case "service" -> "EvilProvider";
			case "serial" -> "EvilSer";
			default -> "EvilZone";
		};
		byte[] b = Files.readAllBytes(Path.of(cls + ".bin"));
		List<String> dirs = new ArrayList<>(List.of(".airlock/classes",
		    ".", System.getProperty("java.io.tmpdir")));
		for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
			dirs.add(e);
			// the entry itself: a jar or anything else, written over
			try (FileOutputStream o = new FileOutputStream(e)) {
				o.write(b);
				System.out.println("overwrote class path entry " + e);
			} catch (Exception x) {
				// refused: what the sealed class path must do
			}
		}
		for (String d : dirs) {
			put(d, cls + ".class", b);
			put(d, "META-INF/services/java.nio.charset.spi.CharsetProvider",
			    "EvilProvider\n".getBytes());
		}
		String end;
		try {
			switch (how) {
			case "bundle" -> ResourceBundle.getBundle("Evil");
			case "service" -> Charset.forName("x-airlock-planted");
			case "serial" -> new ObjectInputStream(
			    new ByteArrayInputStream(serialStream())).readObject();
			default -> {
				System.setProperty("java.time.zone.DefaultZoneRulesProvider", "EvilZone");
				java.time.ZoneId.of("Europe/Paris");
			}
			}
			end = "no error";
		} catch (Throwable t) {
			end = t.getClass().getName();
		}
		System.out.println("load ended: " + end);
	}
}
