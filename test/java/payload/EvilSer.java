// EvilSer.java - an unchecked Serializable class: ObjectInputStream
// resolves the class a stream names with the caller's class loader and
// initialises it to build the object.
public class EvilSer implements java.io.Serializable {
	private static final long serialVersionUID = 1L;

	static {
		System.out.println("DENYLIST-BYPASSED serial");
	}
}
