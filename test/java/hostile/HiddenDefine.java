// HiddenDefine.java - defines a hidden class from bytes:
// MethodHandles.Lookup.defineHiddenClass. Refused before it runs.
import java.lang.invoke.MethodHandles;

public class HiddenDefine {
	public static void main(String[] args) throws Exception {
		MethodHandles.lookup().defineHiddenClass(new byte[] { (byte) 0xca },
		    true);
		System.out.println("{\"ran\":true}");
	}
}
