// Deserial.java - a class by name through a serialised stream: the
// stream of Thread.class, its class name replaced by a run-time string
// (java.lang.ProcessBuilder), reads back as that Class object, a class
// the tool may not name. Refused before it runs: ObjectInputStream (any
// use: it builds whatever Serializable class a stream names) is on the
// denylist.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

public class Deserial {
	public static void main(String[] args) throws Exception {
		ByteArrayOutputStream b = new ByteArrayOutputStream();
		try (ObjectOutputStream o = new ObjectOutputStream(b)) {
			o.writeObject(Thread.class);
		}
		byte[] s = b.toByteArray();
		String from = "java.lang.Thread";
		String to = new StringBuilder("redliuBssecorP.gnal.avaj")
		    .reverse().toString();
		byte[] out = new byte[s.length + to.length() - from.length()];
		int at = new String(s, "ISO-8859-1").indexOf(from), n = 0;
		for (int i = 0; i < at - 2; i++)
			out[n++] = s[i];
		out[n++] = (byte)(to.length() >> 8);
		out[n++] = (byte)to.length();
		for (char c : to.toCharArray())
			out[n++] = (byte)c;
		for (int i = at + from.length(); i < s.length; i++)
			out[n++] = s[i];
		try (ObjectInputStream in = new ObjectInputStream(
		    new ByteArrayInputStream(out))) {
			Object got = in.readObject();
			System.out.println("{\"built\":\"" +
			    ((Class<?>)got).getName() + "\"}");
		}
	}
}
