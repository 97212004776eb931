// Kafka round trip used by infra/local/smoke: create a topic, produce one record, consume it.
// Run with the broker's own jars:  java -cp '.run/dist/kafka-<v>/libs/*' KafkaSmoke.java HOST:PORT
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class KafkaSmoke {
  public static void main(String[] args) throws Exception {
    String brokers = args.length > 0 ? args[0] : "127.0.0.1:29092";
    String topic = "infra-smoke-" + UUID.randomUUID();
    String value = "ping-" + System.nanoTime();
    Map<String, Object> common = Map.of("bootstrap.servers", brokers);
    try (Admin admin = Admin.create(common)) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
      Properties p = new Properties();
      p.putAll(common);
      p.put("acks", "all");
      p.put("enable.idempotence", "true");
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
        producer.send(new ProducerRecord<>(topic, "k", value)).get();
      }
      Properties c = new Properties();
      c.putAll(common);
      c.put("group.id", "infra-smoke");
      c.put("auto.offset.reset", "earliest");
      String got = null;
      try (KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
        consumer.subscribe(List.of(topic));
        long deadline = System.currentTimeMillis() + 30_000;
        while (got == null && System.currentTimeMillis() < deadline) {
          for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) got = r.value();
        }
        consumer.commitSync();
      }
      admin.deleteTopics(List.of(topic)).all().get();
      if (!value.equals(got)) throw new IllegalStateException("consumed " + got + ", expected " + value);
      System.out.println("kafka: created topic, produced and consumed '" + value + "' via consumer group");
    }
  }
}
