// JniLoad.java - loads a native library the tool could have written
// (/tmp/libx.so), by Runtime.load and through a method reference to
// System::load. Refused before it runs.
import java.util.function.Consumer;

public class JniLoad {
	public static void main(String[] args) {
		Consumer<String> load = System::load;
		load.accept("/tmp/libx.so");
		Runtime.getRuntime().load("/tmp/libx.so");
		System.out.println("{\"ran\":true}");
	}
}
